"""Weaker levels made from a stronger bot plus noise: with probability ``p`` a decision
is a random one of the offered actions (a win is still always taken), otherwise the
inner bot decides. The noise is drawn from the decision's own stream, so it is as
deterministic as the rest."""

from __future__ import annotations

from typing import Any

from ..actions import Action
from .seen import SeededBot, decision_stream

HU = Action("hu")


class NoisyBot:
    def __init__(self, inner: SeededBot, noise: float, level: str) -> None:
        self.inner = inner
        self.noise = noise
        self.level = level

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        if len(actions) == 1 or HU in actions:
            return self.inner.choose(view, actions)
        stream = decision_stream(self.inner.seed, view, b"noise")
        if stream.below(1000) < self.noise * 1000:
            return actions[stream.below(len(actions))]
        return self.inner.choose(view, actions)
