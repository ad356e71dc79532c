"""Typed engine errors. Every message names the offending input."""


class EngineError(ValueError):
    """Base class for everything the engine refuses."""


class InvalidAction(EngineError):
    """The input cannot be parsed: bad notation, impossible tiles, wrong counts."""


class IllegalAction(EngineError):
    """Well-formed, but not allowed now: out of turn, tile not in hand, stale version."""


class InvalidRuleset(EngineError):
    """A ruleset override is unknown or inconsistent."""
