"""The six rulesets we ship, by slug (RULES.md sections 4-9)."""

from collections.abc import Mapping
from typing import Any

from ..errors import InvalidRuleset
from . import classic, gb, quesheng, stage, tiao72, wenzhou
from .base import OVERRIDABLE, Ruleset, Timers, check_consistency, derive

RULESETS: dict[str, Ruleset] = {
    m.RULESET.slug: m.RULESET for m in (classic, stage, quesheng, tiao72, gb, wenzhou)
}
SLUGS = tuple(RULESETS)


def get_ruleset(slug: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    try:
        base = RULESETS[slug]
    except (KeyError, TypeError):
        raise InvalidRuleset(
            f"unknown ruleset {slug!r}; rulesets are {', '.join(SLUGS)}",
            code="unknown_ruleset",
            value=slug,
            allowed=list(SLUGS),
        ) from None
    return derive(base, overrides)


__all__ = [
    "RULESETS",
    "SLUGS",
    "OVERRIDABLE",
    "Ruleset",
    "Timers",
    "derive",
    "get_ruleset",
    "check_consistency",
]
