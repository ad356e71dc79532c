"""Typed engine errors. Every message names the offending input."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class EngineError(ValueError):
    """Base class for everything the engine refuses."""


class InvalidAction(EngineError):
    """The input cannot be parsed: bad notation, impossible tiles, wrong counts."""


class IllegalAction(EngineError):
    """Well-formed, but not allowed now: out of turn, tile not in hand, stale version.

    ``code`` names the refusal (see ILLEGAL_ACTIONS) and ``facts`` what it needs, so a
    front end can say it in its own language ("not_held" carries ``facts["tiles"]``;
    "not_your_turn" names no phase: the phase of the opponent's decision may be a tell);
    None for a refusal without one.
    """

    def __init__(self, message: str, *, code: str | None = None, **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


class SeedMismatch(EngineError):
    """A finished hand's revealed seed does not hash to the commitment published at its
    start: its record cannot be trusted, nor replayed."""


class InvalidRuleset(EngineError):
    """A ruleset override is unknown or inconsistent.

    Besides its English text the error carries the facts behind it, so a front end can
    say the same thing in its own words and language: ``code`` names the kind of check
    (see RULESET_CHECKS), ``setting`` the path of the refused setting (e.g. ``("cap",)``,
    ``("timers", "decision")``, ``("fan_values", "qing_yi_se")``), ``value`` the refused
    value (absent when there is none) and ``facts`` the limits of the check (``low``,
    ``high``, ``allowed``, ...). An error raised without a code has ``code`` None.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        setting: Iterable[str] = (),
        value: object = None,
        **facts: Any,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.setting = tuple(setting)
        self.value = value
        self.facts = facts


# Every ``code`` an IllegalAction of ``game.apply`` may carry, with the facts it has. None
# names the phase or what the other seat may do: the refusal reaches the player.
ILLEGAL_ACTIONS = {
    "no_seat": "",
    "ended": "",
    "not_your_turn": "",
    "not_held": "tiles: the tiles not held, in notation (e.g. '4z', '19m')",
    "give_back_size": "size: the tiles an exchange or swap gives back; count: those chosen",
    "give_back_none": "",
    "not_offered": "",
}


# Every ``code`` an InvalidRuleset may carry, with the facts it has.
RULESET_CHECKS = {
    "unknown_ruleset": "value: the slug; allowed: the slugs",
    "not_object": "setting: overrides/timers/options/fan_values; value",
    "unknown_setting": "setting; allowed: the names that may be overridden",
    "true_or_false": "setting; value",
    "whole_number": "setting; value; low: the least allowed; high: the most, or None",
    "whole_number_or_none": "setting; value; low: the least allowed number; high: the most",
    "seconds": "setting: (timers, name); value; low; high (any number, not only whole)",
    "unknown_timer": "setting: (timers, name); allowed: the timer names",
    "unknown_option": "setting: (options, name); ruleset: the slug; allowed: option names",
    "option_type": "setting: (options, name); value; kind: bool/int/float/str",
    "probability": "setting: (options, name); value; low 0; high 1",
    "fan_value": "setting: (fan_values, key); value; low 0; high: the most",
    "unknown_fan": "setting: (fan_values,); ruleset: the slug; fans: the unknown keys",
    "needs": "setting; other: the setting that must be on (both booleans)",
    "at_least": "setting; value; low; because: the ruleset's option that asks for it",
    "must_be_zero": "setting; value; because: the ruleset's option that is off",
    "at_most": "setting; value; high",
    "below": "setting; value; other: the setting it must not be below; other_value",
    "unknown_forms": "setting: (forms,); value: the unknown form names",
}
