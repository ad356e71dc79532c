"""Live tables in the admin: to look up, not to edit. A table, its seats, hands and event
log change only through tables.services (the engine's state, its version, the timers and
the ledger move together there); a row added or edited here would be a table no service
opened, which the sweeper and the pages cannot make sense of. The one thing an operator
does here is close a stuck table, and that too goes through the services."""

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from mahjong.admin_readonly import ReadOnlyAdmin, ReadOnlyInline
from mahjong.engine.views import event_for, view

from . import services
from .models import Event, Hand, Match, Seat, Table
from .presenters import tiles_of


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["index", "user", "bot_level", "auto_play", "connections", "disconnected_at"]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "players", "ruleset", "tier", "status", "created_at"]
    list_filter = ["status", "ruleset"]
    list_select_related = ["ruleset", "tier"]
    # A player reports "my table is stuck": found by their name as well as by the table's id.
    search_fields = ["=public_id", "seats__user__username", "seats__user__nickname"]
    inlines = [SeatInline]
    actions = ["close_tables"]
    # The note is stored as a message and its arguments (tables.notes): show it read.
    exclude = ["note"]
    readonly_fields = ["closing_note"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description=_("players"))
    def players(self, obj):
        return " · ".join(str(seat.user) for seat in obj.seats.all())

    @admin.display(description=_("note"))
    def closing_note(self, obj):
        return obj.note_text

    def has_close_permission(self, request):
        # Closing changes a table (through the services): the table's change permission,
        # which ReadOnlyAdmin refuses for editing the row itself.
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")

    @admin.action(
        description=_("Close the table (a hand in play ends drawn, nobody pays)"),
        permissions=["close"],
    )
    def close_tables(self, request, queryset):
        if "confirmed" not in request.POST:  # a hand in play ends at once: asked first
            context = {
                **self.admin_site.each_context(request),
                "title": _("Close the tables?"),
                "queryset": queryset.prefetch_related("seats__user"),
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            }
            return TemplateResponse(request, "admin/tables/table/close_confirmation.html", context)
        called_off = closed = 0
        for table in queryset.filter(status=Table.Status.PLAYING):
            try:
                done = services.close_by_operator(table.pk)
            except services.TableError as exc:
                self.message_user(request, f"{table.public_id}: {exc}", messages.ERROR)
                continue
            called_off += done == "called_off"
            closed += bool(done)
        if closed:
            self.message_user(
                request,
                ngettext(
                    "Closed %(n)d table (hands called off: %(hands)d).",
                    "Closed %(n)d tables (hands called off: %(hands)d).",
                    closed,
                )
                % {"n": closed, "hands": called_off},
                messages.SUCCESS,
            )
        else:
            self.message_user(request, _("No open table was selected."), messages.WARNING)


# Hands and events: newest first, found by the table's public id (the one the table list,
# the players' links and the history pages show; the rows' own names use internal ids).
@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "version", "deadline", "ended_at"]
    list_select_related = ["table"]
    list_filter = ["ended_at"]
    search_fields = ["=table__public_id"]
    ordering = ["-id"]
    show_full_result_count = False
    # The raw state holds both concealed hands and the wall, the seeds the wall to come:
    # an operator sees a hand as a spectator does, its tiles drawn, until it ends.
    exclude = ["state", "seed", "next_seed"]
    readonly_fields = ["on_the_table"]

    @admin.display(description=_("on the table"))
    def on_the_table(self, obj):
        public = view(obj.game(), None)
        seats = [
            {
                "index": s["seat"],
                "concealed": tiles_of(s["concealed"]),
                "count": s["concealed_count"],
                "melds": [
                    {"tiles": tiles_of(m.partition(" ")[2].replace(" ", ""))} for m in s["melds"]
                ],
                "flowers": tiles_of(s["flowers"]),
                "river": tiles_of(s["river"]),
            }
            for s in public["seats"]
        ]
        return render_to_string(
            "admin/tables/hand/public_view.html", {"view": public, "seats": seats}
        )


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):  # append-only, by the services
    list_display = ["table", "hand_number", "seq", "version", "kind", "created_at"]
    list_select_related = ["hand__table"]
    search_fields = ["=hand__table__public_id"]
    ordering = ["-id"]
    show_full_result_count = False  # a COUNT of every event ever logged, on each page
    # A private draw or deal names concealed tiles: shown as a spectator sees it while
    # its hand is in play, whole once the hand has ended.
    exclude = ["data"]
    readonly_fields = ["shown_data"]

    @admin.display(description=_("data"))
    def shown_data(self, obj):
        return obj.data if obj.hand.ended_at else event_for(obj.data, None)

    @admin.display(description=_("table"), ordering="hand__table")
    def table(self, obj):
        return obj.hand.table.public_id

    @admin.display(description=_("hand"), ordering="hand")
    def hand_number(self, obj):
        return obj.hand.number


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):  # made by the lobby's services, moved by the tables'
    list_display = (
        "public_id",
        "kind",
        "state",
        "tier",
        "ruleset",
        "player_one",
        "player_two",
        "ranked",
        "created_at",
    )
    list_filter = ("kind", "state", "ranked", "tier")
    list_select_related = ("tier", "ruleset", "player_one", "player_two")
    search_fields = (
        "public_id",
        "player_one__username",
        "player_one__nickname",
        "player_two__username",
        "player_two__nickname",
    )
    readonly_fields = ("public_id", "created_at")
    raw_id_fields = ("player_one", "player_two")
