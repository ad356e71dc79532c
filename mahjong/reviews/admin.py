"""Hand reviews in the admin, to look up: the task wrote them from the hand's record, and
an edited one would disagree with it."""

from django.contrib import admin

from mahjong.admin_readonly import ReadOnlyAdmin

from .models import Puzzle, Review


@admin.register(Review)
class ReviewAdmin(ReadOnlyAdmin):
    list_display = ("hand", "seat", "player", "agreed", "choices", "mistakes", "tiles_given_up")
    list_select_related = ("hand__table", "player")
    search_fields = ("player__username", "player__nickname", "hand__table__public_id")
    raw_id_fields = ("hand", "player")
    date_hierarchy = "reviewed_at"


@admin.register(Puzzle)
class PuzzleAdmin(ReadOnlyAdmin):
    list_display = ("code", "hand", "seat", "step", "ruleset", "answer", "created_at")
    list_select_related = ("hand__table",)
    search_fields = ("code", "hand__table__public_id")
    list_filter = ("ruleset",)
    raw_id_fields = ("hand",)
