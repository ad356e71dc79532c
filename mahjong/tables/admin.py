"""Live tables in the admin: to look up, not to edit. A table, its seats, hands and event
log change only through tables.services (the engine's state, its version, the timers and
the ledger move together there); a row added or edited here would be a table no service
opened, which the sweeper and the pages cannot make sense of."""

from django.contrib import admin

from mahjong.admin_readonly import ReadOnlyAdmin

from .models import Event, Hand, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ["index", "user", "bot_level", "auto_play", "connections", "disconnected_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "ruleset", "tier", "status", "created_at"]
    list_filter = ["status", "ruleset"]
    list_select_related = ["ruleset", "tier"]
    search_fields = ["public_id"]
    inlines = [SeatInline]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "version", "deadline", "ended_at"]
    list_select_related = ["table"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):  # append-only, by the services
    list_display = ["hand", "seq", "version", "kind", "created_at"]
    list_select_related = ["hand"]
