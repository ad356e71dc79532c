from django import forms
from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from mahjong.engine.errors import InvalidRuleset

from .models import Leaderboard, Match, PrivateRoom, QueueTicket, RoomTier, Ruleset, engine_choices


class RulesetForm(forms.ModelForm):
    engine_slug = forms.ChoiceField(label=_("engine ruleset"), choices=engine_choices)

    class Meta:
        model = Ruleset
        fields = "__all__"
        widgets = {
            "overrides": forms.Textarea(
                attrs={"rows": 8, "cols": 80, "style": "font-family: monospace"}
            )
        }


@admin.register(Ruleset)
class RulesetAdmin(admin.ModelAdmin):
    form = RulesetForm
    list_display = (
        "name",
        "name_en",
        "slug",
        "engine_slug",
        "is_active",
        "ordering",
        "has_overrides",
    )
    list_editable = ("is_active", "ordering")
    list_filter = ("engine_slug", "is_active")
    search_fields = ("name", "name_en", "slug")
    readonly_fields = ("effective_rules",)
    fields = (
        "slug",
        "engine_slug",
        "name",
        "name_en",
        "overrides",
        "effective_rules",
        "is_active",
        "ordering",
    )

    @admin.display(boolean=True, description=_("overrides"))
    def has_overrides(self, obj):
        return bool(obj.overrides)

    @admin.display(description=_("rules in effect"))
    def effective_rules(self, obj):
        """What the engine will play, so an operator sees the result of an override."""
        if not obj.pk:
            return _("Shown after saving.")
        # The saved row: on a form with errors `obj` holds the refused overrides.
        saved = Ruleset.objects.get(pk=obj.pk)
        try:
            rs = saved.engine()
        except InvalidRuleset as exc:
            return str(exc)
        facts = {
            _("tiles"): rs.tile_count,
            _("hand size"): rs.hand_size,
            _("minimum fan"): rs.min_fan,
            _("cap"): rs.cap if rs.cap is not None else _("none"),
            _("self-draw multiplier"): rs.self_draw_multiplier,
            _("discard multiplier"): rs.discard_multiplier,
            _("rake %"): rs.rake_percent,
            _("escape penalty"): rs.escape_penalty,
            _("base"): rs.base_points,
            _("decision timer (s)"): rs.timers.decision,
            _("escape after (s)"): rs.timers.escape,
        }
        rows = "".join("<tr><th>{}</th><td>{}</td></tr>" for _key in facts)
        return format_html(f"<table>{rows}</table>", *[x for pair in facts.items() for x in pair])


@admin.register(RoomTier)
class RoomTierAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "name_en",
        "ruleset",
        "beans_per_point",
        "entry_min",
        "entry_max",
        "is_active",
        "ordering",
    )
    list_editable = ("beans_per_point", "entry_min", "entry_max", "is_active", "ordering")
    list_select_related = ("ruleset",)
    search_fields = ("name", "name_en", "slug")
    list_filter = ("is_active", "ruleset")


@admin.register(Leaderboard)
class LeaderboardAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "name_en",
        "metric",
        "period",
        "tier",
        "ruleset",
        "size",
        "visible",
        "ordering",
    )
    list_editable = ("visible", "ordering", "size")
    list_select_related = ("tier", "ruleset")
    list_filter = ("metric", "period", "visible")
    search_fields = ("name", "name_en")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
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


@admin.register(QueueTicket)
class QueueTicketAdmin(admin.ModelAdmin):
    list_display = ("public_id", "player", "tier", "ruleset", "state", "created_at", "last_seen")
    list_filter = ("state", "tier")
    list_select_related = ("player", "tier", "ruleset")
    search_fields = ("public_id", "player__username", "player__nickname")
    raw_id_fields = ("player", "match")


@admin.register(PrivateRoom)
class PrivateRoomAdmin(admin.ModelAdmin):
    list_display = ("code", "host", "ruleset", "base_points", "state", "created_at")
    list_filter = ("state", "ruleset")
    list_select_related = ("host", "ruleset")
    search_fields = ("code", "host__username", "host__nickname")
    raw_id_fields = ("host", "match")
