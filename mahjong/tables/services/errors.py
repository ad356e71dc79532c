"""The refusals of the write path: each carries the sentence shown to the player."""

from __future__ import annotations


class TableError(Exception):
    """A request the table refuses; the message is shown to the player."""


class StaleVersion(TableError):
    pass


class IllegalMove(TableError):
    pass
