"""Ratings in the admin: to look up, not to edit. A rating is the result of the rated
hands (services.record_ranked_hand); a hand-edited value would disagree with the history
its profile charts, so every field is read-only and nothing is added or deleted here."""

from django.contrib import admin

from mahjong.admin_readonly import ReadOnlyAdmin

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "rating", "deviation", "volatility", "games", "rated_at")
    list_select_related = ("player",)
    search_fields = ("player__username", "player__nickname", "player__public_id")
    ordering = ("-rating",)
    date_hierarchy = "rated_at"


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("at", "player", "opponent", "score", "rating_before", "rating_after")
    list_select_related = ("player", "opponent")
    search_fields = ("player__username", "player__nickname", "opponent__username")
    date_hierarchy = "at"
