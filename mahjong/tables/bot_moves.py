"""The server's own decisions at a table: a bot seat's move at its account's level, and
auto-play (托管) of a player who asked for it by timing out twice or whose connection is
gone, at the ``efficient`` level. A single missed timer of a connected player stays the
engine's ``default_action`` (RULES.md 3.12).

A bot only ever sees the seat's view and the offered actions
(``mahjong.engine.bots.choose_for``), never the ``GameState``.
"""

from __future__ import annotations

from mahjong.engine import bots as engine_bots
from mahjong.engine import game as engine
from mahjong.engine.actions import Action

AUTO_PLAY_LEVEL = "efficient"


def choose(level: str, seed: str, state, seat: int) -> Action:
    """A ``level`` bot's decision for ``seat``, from the seat's view and offered actions."""
    offered = engine.legal_actions(state, seat)
    if len(offered) == 1:
        return offered[0]
    return engine_bots.choose_for(engine_bots.get_bot(level, seed, state.ruleset), state, seat)


def is_away(seat) -> bool:
    """The player's last connection closed and none replaced it."""
    return seat.disconnected_at is not None and seat.connections <= 0


def decide(state, seat, seed: str) -> tuple[Action, str] | None:
    """What the server plays for ``seat`` (whose turn it is) when its timer fires, and
    who made the move ("bot", "auto" or "timeout"); None if the seat has nothing to do."""
    turn = state.turn
    if not engine.legal_actions(state, turn):
        return None
    if seat.is_bot:
        return choose(seat.bot_level or "random", seed, state, turn), "bot"
    if seat.auto_play or is_away(seat):
        return choose(AUTO_PLAY_LEVEL, seed, state, turn), "auto"
    action = engine.default_action(state, turn)
    if action is None:
        return None
    return action, "auto" if engine.is_forced(state, turn) else "timeout"
