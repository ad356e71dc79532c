"""Live tables in the admin: to look up, not to edit. A table, its seats, hands and event
log change only through tables.services (the engine's state, its version, the timers and
the ledger move together there); a row added or edited here would be a table no service
opened, which the sweeper and the pages cannot make sense of."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from mahjong.admin_readonly import ReadOnlyAdmin, ReadOnlyInline

from .models import Event, Hand, Seat, Table


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["index", "user", "bot_level", "auto_play", "connections", "disconnected_at"]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "ruleset", "tier", "status", "created_at"]
    list_filter = ["status", "ruleset"]
    list_select_related = ["ruleset", "tier"]
    search_fields = ["public_id"]
    inlines = [SeatInline]
    # The note is stored as a message and its arguments (tables.notes): show it read.
    exclude = ["note"]
    readonly_fields = ["closing_note"]

    @admin.display(description=_("note"))
    def closing_note(self, obj):
        return obj.note_text


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "version", "deadline", "ended_at"]
    list_select_related = ["table"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):  # append-only, by the services
    list_display = ["hand", "seq", "version", "kind", "created_at"]
    list_select_related = ["hand"]
