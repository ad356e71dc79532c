"""Hands dealt from a chosen wall, written in notation: readable scripted tests, bot
puzzles and replays of reported games. Never used for real play (real walls come from
``wall.shuffled``)."""

from __future__ import annotations

from collections import Counter

from .errors import EngineError
from .game import new_hand
from .rulesets import Ruleset, get_ruleset
from .state import GameState, Session
from .tiles import is_flower, parse_tiles


def scripted_hand(
    ruleset: Ruleset | str,
    *,
    dealer_hand: str,
    other_hand: str,
    draws: str = "",
    back: str = "",
    reserve: str = "",
    dealer: int = 0,
    seed: bytes | str | int = 0,
    session: Session | None = None,
) -> GameState:
    """Deal ``dealer_hand`` (hand_size + 1 tiles) to ``dealer`` and ``other_hand`` to the
    other seat; then the haidi ``reserve`` (classic) and the front ``draws`` in order;
    ``back`` lists replacement draws in order (wenzhou: its first tile is the 财神
    indicator). The rest of the box fills the middle of the wall."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    first, second = (
        parse_tiles(dealer_hand, check_copies=False),
        parse_tiles(other_hand, check_copies=False),
    )
    if (len(first), len(second)) != (rs.hand_size + 1, rs.hand_size):
        raise EngineError(
            f"scripted hands need {rs.hand_size + 1} and {rs.hand_size} tiles, "
            f"got {len(first)} ({dealer_hand}) and {len(second)} ({other_hand})"
        )
    drawn, backs = parse_tiles(draws, check_copies=False), parse_tiles(back, check_copies=False)
    set_aside = parse_tiles(reserve, check_copies=False)
    if rs.haidi_phase and rs.playing_tiles is None and not set_aside:
        set_aside = _spare_tiles(rs, first + second + drawn + backs, rs.haidi_draws)
    front = first + second + set_aside + drawn
    if session is not None:
        dealer = session.dealer
    return new_hand(rs, seed, dealer=dealer, session=session, wall=tuple(front), back=tuple(backs))


def _spare_tiles(rs: Ruleset, used: list[int], count: int) -> list[int]:
    """Plain tiles the script does not use, for a reserve it does not care about."""
    left = Counter(rs.tile_set) - Counter(used)
    return [t for t in sorted(left.elements()) if not is_flower(t)][:count]
