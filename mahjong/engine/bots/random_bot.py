"""The random legal player: uniform over the offered actions, reproducible from a seed
(the same SHA-256 stream as the wall, so a simulation replays on any Python).

It reads nothing of the view: ``simulate`` passes ``None`` to keep self-play fast."""

from __future__ import annotations

from ..actions import Action
from ..wall import ByteStream, seed_bytes


class RandomBot:
    level = "random"

    def __init__(self, seed, ruleset=None):
        self._stream = ByteStream(seed_bytes(seed), b"random-bot")

    def choose(self, view: dict | None, actions: list[Action]) -> Action:
        return actions[self._stream.below(len(actions))]
