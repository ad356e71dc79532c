"""The random legal player: uniform over the offered actions, reproducible from a seed
(the same SHA-256 stream as the wall, so a simulation replays on any Python)."""

from __future__ import annotations

from ..actions import Action
from ..state import GameState
from ..wall import ByteStream, seed_bytes


class RandomBot:
    def __init__(self, seed):
        self._stream = ByteStream(seed_bytes(seed), b"random-bot")

    def choose(self, state: GameState, seat: int, actions: list[Action]) -> Action:
        return actions[self._stream.below(len(actions))]
