"""The engine's refusal of a ruleset override, said in the operator's words and language.

The engine (plain Python, no Django) raises InvalidRuleset with its English text plus the
facts behind it: the kind of check (``code``, mahjong.engine.errors.RULESET_CHECKS), the
setting's path, the refused value and the limits. Here those facts become a translated
message that names the setting by the admin form's label where it has a field, and by
its JSON key where it is set in the JSON box.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.utils.text import format_lazy
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from mahjong.engine.errors import InvalidRuleset
from mahjong.engine.rulesets import RULESETS

# The settings with a field of their own in the ruleset admin, by path: the field labels.
SETTING_LABELS = {
    ("cap",): gettext_lazy("Cap"),
    ("min_fan",): gettext_lazy("Minimum fan"),
    ("base_points",): gettext_lazy("Base"),
    ("rake_percent",): gettext_lazy("Rake %"),
    ("self_draw_multiplier",): gettext_lazy("Self-draw multiplier"),
    ("discard_multiplier",): gettext_lazy("Discard multiplier"),
    ("escape_penalty",): gettext_lazy("Escape penalty"),
    ("timers", "decision"): gettext_lazy("Decision timer (s)"),
    ("timers", "escape"): gettext_lazy("Escape after (s)"),
    ("auto_win_on_timeout",): gettext_lazy("Win automatically on timeout"),
    ("options", "p_cuo"): gettext_lazy("Chance of a pick-from-the-wall offer after a draw (搓牌)"),
    ("options", "p_swap"): gettext_lazy("Chance of a mid-game swap offer (游戏中换牌)"),
    ("options", "p_bleed"): gettext_lazy("Chance of a big-bleed deal (配牌大出血)"),
    ("options", "p_bleed_yakuman"): gettext_lazy(
        "Chance of a yakuman big-bleed deal, stage 4 (役满大出血)"
    ),
    ("options", "ming_an_gang"): gettext_lazy("Exposed-and-concealed kong scores (明暗杠)"),
    ("options", "dealer_escape_penalty"): gettext_lazy("Dealer's escape penalty (×)"),
    ("options", "gb_supplement"): gettext_lazy(
        "Supplement fans of the national rules, RULES.md 7.6 (国标)"
    ),
    (): gettext_lazy("Other overrides (JSON)"),
}

# What a check that depends on a feature of the ruleset calls that feature.
FEATURES = {
    "guo_hu": gettext_lazy("passing a win to double it (过胡)"),
    "haidi_phase": gettext_lazy("a last-tiles phase (海底捞月)"),
}
KINDS = {
    "int": gettext_lazy("a whole number"),
    "float": gettext_lazy("a number"),
    "str": gettext_lazy("text"),
}


def json_key(setting: tuple) -> str:
    """A setting without a field of its own, as the operator writes it in the JSON box."""
    return format_lazy('"{}"', ".".join(str(part) for part in setting))


def _value(value) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return str(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def ruleset_name(slug) -> str:
    """An engine ruleset's name in the active language; an unknown slug as it is."""
    engine = RULESETS.get(slug)
    if engine is None:
        return str(slug)
    return engine.name_en if get_language() == "en" else engine.name_zh


def _names(names) -> str:
    return ", ".join(str(name) for name in names) or _("none")


def describe(
    exc: InvalidRuleset,
    label_of: Callable[[tuple], object | None] = SETTING_LABELS.get,
    ruleset: str | None = None,
) -> str:
    """The refusal as a sentence in the active language.

    ``label_of(setting)`` is the label of the form field that holds ``setting`` (a path
    such as ``("timers", "decision")``), or None for a setting set in the JSON box.
    ``ruleset`` is the engine ruleset's slug the overrides were checked against.
    """
    facts = exc.facts

    def label(setting):
        return str(label_of(tuple(setting)) or json_key(tuple(setting)))

    args = {
        "field": label(exc.setting) if exc.setting else label(()),
        "value": _value(exc.value),
        "ruleset": ruleset_name(facts.get("ruleset", ruleset)),
        **{k: _value(facts[k]) for k in ("low", "high", "other_value") if k in facts},
    }
    code = exc.code
    if code == "whole_number" and facts.get("high") is None:
        return _("%(field)s must be a whole number of at least %(low)s; got %(value)s.") % args
    if code == "whole_number":
        return _("%(field)s must be a whole number from %(low)s to %(high)s; got %(value)s.") % args
    if code == "whole_number_or_none" and facts.get("high") is not None:
        return (
            _(
                "%(field)s must be left empty or be a whole number from %(low)s to %(high)s; "
                "got %(value)s."
            )
            % args
        )
    if code == "whole_number_or_none":
        return (
            _(
                "%(field)s must be left empty or be a whole number of at least %(low)s; "
                "got %(value)s."
            )
            % args
        )
    if code == "seconds":
        return _("%(field)s must be from %(low)s to %(high)s; got %(value)s.") % args
    if code == "true_or_false" or (code == "option_type" and facts.get("kind") == "bool"):
        return _("%(field)s must be true or false; got %(value)s.") % args
    if code == "not_object":
        return _('%(field)s must be a JSON object such as {"name": value}; got %(value)s.') % args
    if code == "unknown_setting":
        args["allowed"] = _names(facts.get("allowed", ()))
        return _("%(field)s cannot be overridden. Settings that can: %(allowed)s.") % args
    if code == "unknown_timer":
        args["field"] = json_key(exc.setting[-1:])
        args["allowed"] = _names(facts.get("allowed", ()))
        return _("There is no timer %(field)s. The timers are: %(allowed)s.") % args
    if code == "unknown_option":
        args["field"] = json_key(exc.setting[-1:])
        args["allowed"] = _names(facts.get("allowed", ()))
        return _("%(ruleset)s has no option %(field)s. Its options: %(allowed)s.") % args
    if code == "option_type":
        args["kind"] = KINDS.get(facts.get("kind"), facts.get("kind"))
        return _("%(field)s must be %(kind)s; got %(value)s.") % args
    if code == "probability":
        return (
            _("%(field)s is a probability: it must be from %(low)s to %(high)s; got %(value)s.")
            % args
        )
    if code == "fan_value":
        args["fan"] = exc.setting[-1]
        if facts.get("high") is not None:
            return (
                _(
                    "The value of the fan %(fan)s must be a whole number from %(low)s to "
                    "%(high)s; got %(value)s."
                )
                % args
            )
        return (
            _(
                "The value of the fan %(fan)s must be a whole number of at least %(low)s; "
                "got %(value)s."
            )
            % args
        )
    if code == "unknown_fan":
        args["fans"] = _names(facts.get("fans", ()))
        args["allowed"] = _names(facts.get("allowed", ()))
        return _("%(ruleset)s has no fan %(fans)s. Its fans: %(allowed)s.") % args
    if code == "needs":
        args["other"] = label(facts["other"])
        return _("%(field)s needs %(other)s to be true.") % args
    if code == "must_be_zero":
        args["feature"] = FEATURES.get(facts["because"][-1], facts["because"][-1])
        return _("%(field)s must be 0: %(ruleset)s has no %(feature)s; got %(value)s.") % args
    if code == "at_least":
        args["feature"] = FEATURES.get(facts["because"][-1], facts["because"][-1])
        return (
            _("%(field)s must be at least %(low)s: %(ruleset)s has %(feature)s; got %(value)s.")
            % args
        )
    if code == "at_most":
        return _("%(field)s must be at most %(high)s; got %(value)s.") % args
    if code == "below":
        args["other"] = label(facts["other"])
        return _("%(field)s (%(value)s) must not be below %(other)s (%(other_value)s).") % args
    if code == "unknown_forms":
        return _("Unknown winning forms: %(value)s.") % args
    if code == "unknown_ruleset":
        return _("There is no engine ruleset %(value)s.") % args
    # A check without facts: the engine's own English after a translated lead-in.
    return _("The engine refused these overrides: %(message)s") % {"message": exc}
