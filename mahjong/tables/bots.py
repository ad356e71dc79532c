"""The bot levels a table offers: the engine's registry (``bots.get_bot``/``LEVELS``)
when present, else the random legal player alone."""

from __future__ import annotations

from mahjong.engine import bots as engine_bots
from mahjong.engine.game import legal_actions
from mahjong.engine.views import view


def levels() -> list[tuple[str, str, str]]:
    """(slug, Chinese name, English name) of each selectable level, weakest first."""
    found = getattr(engine_bots, "LEVELS", None)
    if found:
        return [(lv.slug, lv.name_zh, lv.name_en) for lv in found]
    return [("random", "随机", "Random")]


def choose(level: str, seed: str, state, seat: int):
    """The bot's decision from the seat's view and the offered actions only."""
    offered = legal_actions(state, seat)
    if len(offered) == 1:
        return offered[0]
    get_bot = getattr(engine_bots, "get_bot", None)
    bot = get_bot(level, seed, state.ruleset) if get_bot else engine_bots.RandomBot(seed)
    return bot.choose(view(state, seat), offered)
