"""Bot players of measured strength (issue 6), and the registry the web uses.

    bot = get_bot("strong", seed)             # any level of LEVELS
    action = bot.choose(view(state, seat), legal_actions(state, seat))

A bot sees only what its seat may see: ``views.view(state, seat)`` (a plain dict) and
the offered actions. It never receives the ``GameState``, so the wall and the
opponent's concealed tiles are out of its reach. Its choice is a function of its seed,
the view and the actions (no memory between decisions), so a web worker can rebuild it
for every move. ``choose_for(bot, state, seat)`` does the two look-ups for the caller
that holds the state (the arena, a Celery task).

``LEVELS`` lists the selectable strengths, weakest first, with display names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..actions import Action
from ..rulesets import Ruleset
from ..state import GameState
from .efficient import EfficientBot
from .noisy import NoisyBot
from .random_bot import RandomBot
from .seen import Bot
from .strong import StrongBot


@dataclass(frozen=True)
class Level:
    slug: str
    name_zh: str
    name_en: str
    about_zh: str
    about_en: str
    make: Callable[[bytes | str | int, Ruleset | None], Bot]


LEVELS: tuple[Level, ...] = (
    Level(
        "random",
        "随机",
        "Random",
        "随便出牌，只为凑桌。",
        "Plays any legal move.",
        lambda seed, rs: RandomBot(seed, rs),
    ),
    Level(
        "novice",
        "新手",
        "Novice",
        "会听牌，但常常出错。",
        "Knows the basics, often slips.",
        lambda seed, rs: NoisyBot(EfficientBot(seed, rs), 0.3, "novice"),
    ),
    Level(
        "efficient",
        "熟手",
        "Skilled",
        "追求最快听牌，有胡就胡。",
        "Races to a ready hand and always takes a win.",
        lambda seed, rs: EfficientBot(seed, rs),
    ),
    Level(
        "strong",
        "高手",
        "Expert",
        "会做大牌、看形势防守、算过胡。",
        "Builds valuable hands, defends, weighs every win.",
        lambda seed, rs: StrongBot(seed, rs),
    ),
)
LEVEL_SLUGS = tuple(level.slug for level in LEVELS)
_BY_SLUG = {level.slug: level for level in LEVELS}


def get_bot(level: str, seed: bytes | str | int, ruleset: Ruleset | None = None) -> Bot:
    """A bot of ``level`` (a slug of LEVELS). ``ruleset`` passes a derived ruleset (room
    overrides); by default the bot reads the shipped ruleset named in the view."""
    try:
        return _BY_SLUG[level].make(seed, ruleset)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVEL_SLUGS)}") from None


def choose_for(bot: Bot, state: GameState, seat: int) -> Action:
    """Ask ``bot`` for ``seat``'s decision: it gets the seat's view and the offered
    actions, nothing else."""
    from ..game import legal_actions
    from ..views import view

    return bot.choose(view(state, seat), legal_actions(state, seat))


__all__ = [
    "LEVELS",
    "LEVEL_SLUGS",
    "Level",
    "get_bot",
    "choose_for",
    "RandomBot",
    "EfficientBot",
    "StrongBot",
    "NoisyBot",
]
