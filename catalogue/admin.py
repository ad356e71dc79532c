"""The catalogue in the admin: rulesets with their fan values and options as form
fields, room tiers with the relief line they move, and leaderboard definitions."""

import copy

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import actions as admin_actions
from django.contrib.admin.utils import unquote
from django.db.models import Exists, OuterRef, Q
from django.shortcuts import redirect
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from mahjong.engine.bots import LEVELS
from mahjong.engine.errors import InvalidRuleset
from mahjong.engine.fans import table_for
from mahjong.engine.rulesets import RULESETS, get_ruleset

from .models import (
    MAX_ENTRY_BEANS,
    Leaderboard,
    RoomTier,
    Ruleset,
    engine_choices,
    relief_threshold,
)
from .ruleset_messages import SETTING_LABELS, describe

COMMON_OVERRIDES = {
    name: (path, SETTING_LABELS[path])
    for name, path in {
        "cap": ("cap",),
        "min_fan": ("min_fan",),
        "base_points": ("base_points",),
        "rake_percent": ("rake_percent",),
        "self_draw_multiplier": ("self_draw_multiplier",),
        "discard_multiplier": ("discard_multiplier",),
        "escape_penalty": ("escape_penalty",),
        "decision_timer": ("timers", "decision"),
        "escape_timer": ("timers", "escape"),
        "auto_win_on_timeout": ("auto_win_on_timeout",),
    }.items()
}
ADD_PAGE_FANS = _(
    "Each fan's value and each option of the engine ruleset get a field of their own "
    "once the ruleset is saved: choose “Save and continue editing”."
)
FIELD_AT = {path: name for name, (path, _label) in COMMON_OVERRIDES.items()}


def _get(overrides, path):
    for key in path:
        if not isinstance(overrides, dict) or key not in overrides:
            return None
        overrides = overrides[key]
    return overrides


def _put(overrides: dict, path, value) -> None:
    *parents, leaf = path
    for key in parents:
        overrides = overrides.setdefault(key, {})
        if not isinstance(overrides, dict):
            return  # e.g. "timers": 5 in the JSON box: the engine refuses it, by name
    if value is None:
        overrides.pop(leaf, None)
    else:
        overrides[leaf] = value


def _drop(overrides: dict, path) -> None:
    _put(overrides, path, None)
    if len(path) == 2 and overrides.get(path[0]) == {}:
        del overrides[path[0]]


def _number(name):
    return forms.IntegerField(label=COMMON_OVERRIDES[name][1], required=False)


FAN_PREFIX, OPTION_PREFIX = "fan__", "option__"


def fan_fields(engine_slug: str) -> dict[str, forms.Field]:
    """A field per fan of the engine ruleset's table, in the table's order: its names,
    its key and its default, so an operator changes a value without knowing the keys."""
    engine = RULESETS.get(engine_slug)
    if engine is None:
        return {}
    fields = {}
    for fan in table_for(engine).fans:
        fields[FAN_PREFIX + fan.key] = forms.IntegerField(  # the engine checks the range
            label=f"{fan.zh} / {fan.en}",
            required=False,
            help_text=_("%(key)s · engine default: %(value)s")
            % {"key": fan.key, "value": fan.value},
        )
    return fields


def option_fields(engine_slug: str) -> dict[str, forms.Field]:
    """A field per option of the engine ruleset (the stage's offer probabilities, gb's
    明暗杠, ...), typed as its default is: 0 and 1 are probabilities as good as 0.0."""
    engine = RULESETS.get(engine_slug)
    if engine is None:
        return {}
    fields = {}
    for name, default in engine.options.items():
        label = SETTING_LABELS.get(("options", name), name)
        if isinstance(default, bool):
            field = _choice_yes_no(label)
            shown = _("yes") if default else _("no")
        elif isinstance(default, float):
            field = forms.FloatField(label=label, required=False)  # the engine checks 0-1
            shown = default
        else:
            field = forms.IntegerField(label=label, required=False, min_value=0)
            shown = default
        field.help_text = _("%(key)s · engine default: %(value)s") % {"key": name, "value": shown}
        fields[OPTION_PREFIX + name] = field
    return fields


def _yes_no(name):
    return _choice_yes_no(COMMON_OVERRIDES[name][1])


def _choice_yes_no(label):
    return forms.TypedChoiceField(
        label=label,
        required=False,
        empty_value=None,
        coerce=lambda v: v == "yes",
        choices=[("", _("as the engine ruleset")), ("yes", _("yes")), ("no", _("no"))],
    )


class RulesetForm(forms.ModelForm):
    # Declared fields take no label from the model: capitalised as Django does for the rest.
    engine_slug = forms.ChoiceField(
        label=capfirst(Ruleset._meta.get_field("engine_slug").verbose_name),
        choices=engine_choices,
    )
    cap = _number("cap")
    min_fan = _number("min_fan")
    base_points = _number("base_points")
    rake_percent = _number("rake_percent")
    self_draw_multiplier = _number("self_draw_multiplier")
    discard_multiplier = _number("discard_multiplier")
    escape_penalty = _number("escape_penalty")
    decision_timer = _number("decision_timer")
    escape_timer = _number("escape_timer")
    auto_win_on_timeout = _yes_no("auto_win_on_timeout")

    class Meta:
        model = Ruleset
        fields = "__all__"
        labels = {"overrides": SETTING_LABELS[()]}
        help_texts = {
            "overrides": _(
                "Everything without a field on this page, as JSON, e.g. "
                '{"haidi_draws": 5, "timers": {"bot_delay": 1}}. Leave {} for none.'
            )
        }
        widgets = {
            "overrides": forms.Textarea(
                attrs={"rows": 6, "cols": 80, "style": "font-family: monospace"}
            )
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        engine = RULESETS.get(self.instance.engine_slug)
        saved = self.instance.overrides if isinstance(self.instance.overrides, dict) else {}
        rest = copy.deepcopy(saved)
        for name, (path, _label) in COMMON_OVERRIDES.items():
            value = _get(saved, path)
            if name == "auto_win_on_timeout" and value is not None:
                value = "yes" if value else "no"
            self.initial[name] = value
            if engine is not None:
                default = _get(_engine_values(engine), path)
                if isinstance(default, bool):
                    default = _("yes") if default else _("no")
                elif default is None:
                    default = _("none")
                self.fields[name].help_text = _("Engine default: %(value)s") % {"value": default}
            _drop(rest, path)
        for name in self.fields:
            path = _grouped_path(name)
            if path:
                value = _get(saved, path)
                if isinstance(value, bool):
                    value = "yes" if value else "no"
                self.initial[name] = value
                _drop(rest, path)
        if not self.is_bound:
            self.initial["overrides"] = rest

    def clean(self):
        cleaned = super().clean()
        if "overrides" not in cleaned:
            return cleaned  # not JSON: the field has said so
        rest = cleaned["overrides"]
        if not isinstance(rest, dict):
            # The engine reads null or [] as "no overrides", so they were saved as typed,
            # without the fields above (null met the column's NOT NULL: a server error).
            exc = InvalidRuleset(
                "overrides must be an object", code="not_object", setting=(), value=rest
            )
            self.add_error("overrides", describe(exc, self._label_of, cleaned.get("engine_slug")))
            return cleaned
        merged = copy.deepcopy(rest)
        for name, (path, label) in COMMON_OVERRIDES.items():
            if _get(rest, path) is not None:
                self.add_error(
                    "overrides", _('Set "%(field)s" in its own field above.') % {"field": label}
                )
            _put(merged, path, cleaned.get(name))
        for group, what in (("fan_values", _("the fan values")), ("options", _("the options"))):
            if any(self.fields.get(_field_name(group, key)) for key in rest.get(group) or {}):
                self.add_error(
                    "overrides", _("Set %(what)s in their own fields above.") % {"what": what}
                )
        for name in self.fields:
            path = _grouped_path(name)
            if path:
                _put(merged, path, _typed(cleaned.get(name)))
        for group in ("timers", "fan_values", "options"):
            if merged.get(group) == {}:
                del merged[group]
        try:
            get_ruleset(cleaned.get("engine_slug"), merged or None)
        except InvalidRuleset as exc:
            # Say it next to the field it names, in the admin's language and with that
            # field's label; keep the saved overrides on the instance so the model's own
            # check does not repeat it.
            self.add_error(
                self._field_at(exc.setting),
                describe(exc, self._label_of, cleaned.get("engine_slug")),
            )
            cleaned.pop("overrides", None)
            return cleaned
        cleaned["overrides"] = merged
        return cleaned

    def _field_at(self, setting: tuple) -> str:
        """The form field holding ``setting``: its own, or the JSON box."""
        if setting in FIELD_AT:
            return FIELD_AT[setting]
        if len(setting) == 2 and setting[0] in ("fan_values", "options"):
            name = _field_name(*setting)
            if name in self.fields:
                return name
        return "overrides"

    def _label_of(self, setting: tuple):
        """The label of the field holding ``setting``; None for one in the JSON box."""
        name = self._field_at(setting)
        if name == "overrides" and setting != ():
            return None
        return self.fields[name].label


def _grouped_path(field_name: str) -> tuple[str, str] | None:
    """The override a fan or option field holds: ("fan_values", key), ("options", name)."""
    if field_name.startswith(FAN_PREFIX):
        return ("fan_values", field_name[len(FAN_PREFIX) :])
    if field_name.startswith(OPTION_PREFIX):
        return ("options", field_name[len(OPTION_PREFIX) :])
    return None


def _field_name(group: str, key: str) -> str:
    return (FAN_PREFIX if group == "fan_values" else OPTION_PREFIX) + key


def _typed(value):
    """A yes/no choice's "" is blank (None); its coerced True/False stay as they are."""
    return None if value == "" else value


def _engine_values(engine) -> dict:
    values = {
        name: getattr(engine, name)
        for name, (path, _label) in COMMON_OVERRIDES.items()
        if len(path) == 1
    }
    values["timers"] = {"decision": engine.timers.decision, "escape": engine.timers.escape}
    return values


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
    fieldsets = (
        (None, {"fields": ("slug", "engine_slug", "name", "name_en", "is_active", "ordering")}),
        (
            _("Common overrides (blank = as the engine ruleset)"),
            {"fields": tuple(COMMON_OVERRIDES)},
        ),
        (_("Advanced"), {"fields": ("overrides",)}),
        (_("Result"), {"fields": ("effective_rules",)}),
    )

    def get_form(self, request, obj=None, change=False, **kwargs):
        # the fields of the ruleset's fans and options, declared for its engine ruleset
        extra = self._extra_fields(obj)
        kwargs["form"] = type("RulesetForm", (self.form,), extra) if extra else self.form
        return super().get_form(request, obj, change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        fieldsets = list(self.fieldsets)
        if obj is None:
            return [
                *fieldsets[:-2],
                (_("Fan values and options"), {"fields": (), "description": ADD_PAGE_FANS}),
                *fieldsets[-2:],
            ]
        extra = self._extra_fields(obj)
        options = [n for n in extra if n.startswith(OPTION_PREFIX)]
        fans = [n for n in extra if n.startswith(FAN_PREFIX)]
        at = len(fieldsets) - 2  # before Advanced and Result
        if options:
            fieldsets.insert(
                at, (_("Options (blank = as the engine ruleset)"), {"fields": options})
            )
            at += 1
        if fans:
            fieldsets.insert(
                at,
                (
                    _("Fan values (blank = as the engine ruleset)"),
                    {"fields": fans, "classes": ("collapse",)},
                ),
            )
        return fieldsets

    @staticmethod
    def _extra_fields(obj) -> dict:
        if obj is None:
            return {}
        return {**option_fields(obj.engine_slug), **fan_fields(obj.engine_slug)}

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
            return describe(exc, ruleset=saved.engine_slug)
        label = SETTING_LABELS.get
        facts = {
            _("Tiles"): rs.tile_count,
            _("Hand size"): rs.hand_size,
            label(("min_fan",)): rs.min_fan,
            label(("cap",)): rs.cap if rs.cap is not None else _("none"),
            label(("self_draw_multiplier",)): rs.self_draw_multiplier,
            label(("discard_multiplier",)): rs.discard_multiplier,
            label(("rake_percent",)): rs.rake_percent,
            label(("escape_penalty",)): rs.escape_penalty,
            label(("base_points",)): rs.base_points,
            label(("timers", "decision")): rs.timers.decision,
            label(("timers", "escape")): rs.timers.escape,
        }
        for name, value in rs.options.items():
            facts[SETTING_LABELS.get(("options", name), name)] = value
        value_of = table_for(rs).value_of(rs.fan_values)
        for fan in table_for(rs).fans:
            facts[f"{fan.zh} / {fan.en}"] = value_of(fan.key)
        rows = "".join("<tr><th>{}</th><td>{}</td></tr>" for _key in facts)
        return format_html(f"<table>{rows}</table>", *[x for pair in facts.items() for x in pair])


def bot_level_choices() -> list[tuple[str, str]]:
    return [(lv.slug, f"{lv.name_zh} / {lv.name_en} ({lv.slug})") for lv in LEVELS]


class RoomTierForm(forms.ModelForm):
    # The engine's levels are code, not schema: offered here, checked by RoomTier.clean.
    bot_fill_level = forms.ChoiceField(
        label=capfirst(RoomTier._meta.get_field("bot_fill_level").verbose_name),
        choices=bot_level_choices,
        initial="efficient",
        help_text=RoomTier._meta.get_field("bot_fill_level").help_text,
    )

    class Meta:
        model = RoomTier
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("entry_min", "entry_max"):  # not the column's 9223372036854775807
            self.fields[name].widget.attrs["max"] = MAX_ENTRY_BEANS


@admin.register(RoomTier)
class RoomTierAdmin(admin.ModelAdmin):
    form = RoomTierForm
    list_display = (
        "name",
        "name_en",
        "ruleset",
        "beans_per_point",
        "entry_min",
        "entry_max",
        "bot_fill_seconds",
        "is_active",
        "ordering",
    )
    list_editable = ("beans_per_point", "entry_min", "entry_max", "is_active", "ordering")
    list_select_related = ("ruleset",)
    search_fields = ("name", "name_en", "slug")
    list_filter = ("is_active", "ruleset")
    actions = ["delete_selected"]  # in place of the site's: see _refuses_deletion

    def save_model(self, request, obj, form, change):
        before = relief_threshold()
        super().save_model(request, obj, form, change)
        self._say_relief_moved(request, before)

    def _say_relief_moved(self, request, before: int) -> None:
        """The daily relief goes to players below the cheapest open room's entry: a room's
        minimum, or a room opened or closed, moves that line for every player."""
        after = relief_threshold()
        if after != before:
            self.message_user(
                request,
                _(
                    "The daily relief's line moved from %(before)s to %(after)s beans for every "
                    "player: it is the cheapest open room's entry minimum."
                )
                % {"before": f"{before:,}", "after": f"{after:,}"},
                messages.WARNING,
            )

    def delete_view(self, request, object_id, extra_context=None):
        tier = self.get_object(request, unquote(object_id))
        if tier is not None and self.has_delete_permission(request, tier):
            if self._refuses_deletion(request, RoomTier.objects.filter(pk=tier.pk)):
                return redirect("admin:catalogue_roomtier_change", tier.pk)
        return super().delete_view(request, object_id, extra_context)

    @admin.action(
        permissions=["delete"], description=admin_actions.delete_selected.short_description
    )
    def delete_selected(self, request, queryset):
        if self._refuses_deletion(request, queryset):
            return None
        return admin_actions.delete_selected(self, request, queryset)

    def _refuses_deletion(self, request, queryset) -> bool:
        """A room that was played or queued in is named by those records (tables, matches,
        queue tickets), which the admin never deletes: Django's page then said the
        operator's account lacked the permission, a superuser's too. Said as it is, with
        what to do instead."""
        used = queryset.filter(_named_elsewhere(RoomTier))
        names = [tier.display_name for tier in used]
        if not names:
            return False
        refusal = ngettext(
            "%(rooms)s cannot be deleted: players have played or queued in it, and those "
            "records keep its name. Untick Open to close it instead.",
            "%(rooms)s cannot be deleted: players have played or queued in them, and those "
            "records keep their names. Untick Open to close them instead.",
            len(names),
        ) % {"rooms": ", ".join(names)}
        self.message_user(request, refusal, messages.ERROR)
        return True


@admin.register(Leaderboard)
class LeaderboardAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "name_en",
        "metric",
        "period",
        "tier",
        "ruleset",
        "min_games",
        "size",
        "visible",
        "ordering",
    )
    list_editable = ("visible", "ordering", "size")
    list_select_related = ("tier", "ruleset")
    list_filter = ("metric", "period", "visible")
    search_fields = ("name", "name_en")


def _named_elsewhere(model) -> Q:
    """Rows of ``model`` that a record of another app names (a table, a match, a queue
    ticket, a rating's hand), found through Django's model metadata: the catalogue sits
    below the apps that point at it and does not import them."""
    named = Q()
    relations = (
        f
        for f in model._meta.get_fields(include_hidden=True)
        if f.auto_created and not f.concrete and (f.one_to_many or f.one_to_one)
    )  # related_name "+" too
    for relation in relations:
        other = relation.related_model
        if other._meta.app_label != model._meta.app_label:
            named |= Q(Exists(other._base_manager.filter(**{relation.field.name: OuterRef("pk")})))
    return named
