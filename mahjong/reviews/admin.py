"""Hand reviews in the admin, to look up: the task wrote them from the hand's record, and
an edited one would disagree with it."""

from django.contrib import admin

from mahjong.admin_readonly import ReadOnlyAdmin

from .models import Review


@admin.register(Review)
class ReviewAdmin(ReadOnlyAdmin):
    list_display = ("hand", "seat", "player", "agreed", "choices", "mistakes", "tiles_given_up")
    list_select_related = ("hand__table", "player")
    search_fields = ("player__username", "player__nickname", "hand__table__public_id")
    raw_id_fields = ("hand", "player")
    date_hierarchy = "reviewed_at"
