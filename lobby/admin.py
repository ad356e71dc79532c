"""The queue and the private rooms in the admin: to look up, as the lobby's services make
and move them."""

from django.contrib import admin

from mahjong.admin_readonly import ReadOnlyAdmin

from .models import PrivateRoom, QueueTicket


@admin.register(QueueTicket)
class QueueTicketAdmin(ReadOnlyAdmin):  # made and moved by the lobby's services
    list_display = ("public_id", "player", "tier", "ruleset", "state", "created_at", "last_seen")
    list_filter = ("state", "tier")
    list_select_related = ("player", "tier", "ruleset")
    search_fields = ("public_id", "player__username", "player__nickname")
    raw_id_fields = ("player", "match")


@admin.register(PrivateRoom)
class PrivateRoomAdmin(ReadOnlyAdmin):  # made and moved by the lobby's services
    list_display = ("code", "host", "ruleset", "base_points", "state", "created_at")
    list_filter = ("state", "ruleset")
    list_select_related = ("host", "ruleset")
    search_fields = ("code", "host__username", "host__nickname")
    raw_id_fields = ("host", "match")
