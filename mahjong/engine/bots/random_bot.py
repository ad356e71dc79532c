"""The random legal player: uniform over the offered actions, reproducible from a seed
(the same SHA-256 stream as the wall, so a simulation replays on any Python).

Given a view, its pick comes from the seed and that view (no memory, like every bot:
a web worker may rebuild it for each move); ``simulate`` passes no view to keep
self-play fast, and then one stream runs through the whole simulation."""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..rulesets import Ruleset
from ..wall import ByteStream, seed_bytes
from .seen import decision_stream


class RandomBot:
    level = "random"

    def __init__(self, seed: bytes | str | int, ruleset: Ruleset | None = None) -> None:
        self.seed = seed
        self._stream = ByteStream(seed_bytes(seed), b"random-bot")

    def choose(self, view: dict[str, Any] | None, actions: list[Action]) -> Action:
        stream = self._stream if view is None else decision_stream(self.seed, view, b"random")
        return actions[stream.below(len(actions))]
