from django.contrib import admin

from .models import Event, Hand, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["user"]
    readonly_fields = ["connections", "disconnected_at"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["public_id", "ruleset", "tier", "status", "created_at"]
    list_filter = ["status", "ruleset"]
    list_select_related = ["ruleset", "tier"]
    search_fields = ["public_id"]
    inlines = [SeatInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["table", "number", "version", "deadline", "ended_at"]
    list_select_related = ["table"]
    readonly_fields = ["table", "number", "state", "version", "commitment", "seed", "result"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["hand", "seq", "version", "kind", "created_at"]
    list_select_related = ["hand"]

    def has_change_permission(self, request, obj=None):
        return False  # append-only
