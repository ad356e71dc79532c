"""Hand analysis: decompositions, win check, shanten, waits (RULES.md 3.8, 3.15).

Kinds are ints (see ``tiles``); ``tiles`` are the concealed tiles, ``melds`` the
declared ``Meld`` values. ``ruleset`` decides the winning forms (``Ruleset.forms``) and
the tile kinds in play; ``None`` means the standard form, seven pairs and thirteen
orphans over all 34 kinds. ``wild`` is the wenzhou 财神 kind: its tiles stand for any
kind in a winning hand, and each 白板 (5z) plays as that kind (unless it is 5z itself).

Shanten is the number of tiles still to exchange before the hand is ready: -1 complete,
0 ready. A ready hand has at least one *live* wait: a kind the hand (concealed tiles and
melds) already holds four of can never arrive (RULES.md 3.15.1), so a hand whose only
waits are such dead ones is not ready and reports shanten 1. Hence, for a 3n+1 hand,
``shanten == 0`` exactly when ``waits`` is non-empty; for a 3n+2 hand, exactly when
``ready_discards`` is. Above 0 shanten is the distance of ``hand_forms`` minus one:
the fewest tiles to add for a complete hand, never more than 4 copies of a kind
counting the melds' (the draw-one-discard-one count; checked by brute force in the
tests).

Decompositions: ``wait`` names the wait the winning tile filled in that reading, as
scoring needs it (RULES.md 3.8.6): "edge", "closed" and "pair" only when the hand could
be completed by exactly one live kind, otherwise "other"; "two_sided" and "pung" as the
shape says; "other" in every special form. 三财神 is a reading only on a self-draw
(``tsumo``); ``is_win`` counts it whenever the three wilds are held, the caller knowing
whose turn it is. With a ruleset, ``is_win`` also wants the ruleset's full hand (melds
counted as 3).

Scoring asks for less: ``readings`` gives ``decompose``'s readings without the
one-winning-kind question (its "edge", "closed" and "pair" labels are the shapes), and
``has_one_winning_kind`` answers that question, without the full wait list, only when
a single-kind wait could score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import permutations
from operator import itemgetter
from typing import Any

from . import hand_forms as forms
from . import hand_readings, suit_tables
from .errors import InvalidAction
from .hand_forms import View, face, view
from .hand_readings import Part, Reading
from .melds import Meld
from .shapes import (
    CHOW,
    KONG,
    LV_YI_SE_LOOSE,
    PAIR,
    PUNG,
    QI_XING_BU_KAO,
    QUAN_BU_KAO,
    SAN_CAI_SHEN,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    YING_BA_DUI,
    ZU_HE_LONG,
    Block,
    Decomposition,
    RulesetLike,
)
from .tiles import YAOJIU, format_tiles

DEFAULT_FORMS = frozenset({STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS})
ALL_KINDS = tuple(range(34))
_MELD_SHAPES = {"chi": CHOW, "pon": PUNG, "kan": KONG, "ankan": KONG}
SINGLE_KIND_WAITS = ("edge", "closed", "pair")  # RULES.md 3.8.6: only with one winning kind
# A special form's reader: (counts, size) -> its readings.
_Reader = Callable[[list[int], int], Collection[Reading]]


def _rules(ruleset: RulesetLike | None) -> tuple[frozenset[str], tuple[int, ...]]:
    if ruleset is None:
        return DEFAULT_FORMS, ALL_KINDS
    return ruleset.forms, ruleset.kinds


def _distance(v: View, allowed: Collection[str], *, exact: bool = True) -> int:
    """Fewest tiles to add for a complete hand in any allowed form (``exact=False``:
    the standard form may ignore the copies melds hold, see ``_distance_of``)."""
    best = forms.standard(v, capped=exact) if STANDARD in allowed else 99
    for name in allowed:
        if best <= 0:
            break
        if name != STANDARD:
            d = forms.DISTANCES[name](v)
            if d is not None and d < best:
                best = d
    return best


def _distance_of(
    tiles: Sequence[int],
    melds: Sequence[Meld],
    allowed: frozenset[str],
    wild: int | None,
    *,
    exact: bool = True,
) -> int:
    """Fewest tiles to add. ``exact=False`` may ignore the copies melds hold (a lower
    bound): enough where only "one tile away?" is asked before the waits are tried,
    since a wait that needs a copy the melds hold is dead anyway (RULES.md 3.15.1)."""
    if wild is None and allowed <= DEFAULT_FORMS:
        keys = suit_tables.keys_of(tiles)
        return forms.basic_distance(keys, melds, len(tiles), allowed, capped=exact)
    return _distance(view(tiles, melds, wild), allowed, exact=exact)


def _check_size(tiles: Sequence[int]) -> int:
    if len(tiles) % 3 == 0:
        raise InvalidAction(
            f"{format_tiles(sorted(tiles))!r}: a hand has 3n+1 or 3n+2 "
            f"concealed tiles, not {len(tiles)}"
        )
    return len(tiles) % 3


# ----- the win check ---------------------------------------------------------------


def is_win(
    tiles: Sequence[int],
    melds: Sequence[Meld],
    ruleset: RulesetLike | None,
    wild: int | None = None,
) -> bool:
    """Do ``tiles`` (concealed, winning tile included) and ``melds`` form a win?"""
    if len(tiles) % 3 != 2:
        return False
    if ruleset is not None and len(tiles) + 3 * len(melds) != ruleset.hand_size + 1:
        return False
    allowed, _ = _rules(ruleset)
    return forms.complete_in(view(tiles, melds, wild), allowed)


# ----- shanten and waits -------------------------------------------------------------


def shanten(
    tiles: Sequence[int],
    melds: Sequence[Meld] = (),
    ruleset: RulesetLike | None = None,
    wild: int | None = None,
) -> int:
    """-1 complete, 0 ready (live waits), n: n exchanges from ready."""
    return shanten_and_waits(tiles, melds, ruleset, wild)[0]


def shanten_and_waits(
    tiles: Sequence[int],
    melds: Sequence[Meld] = (),
    ruleset: RulesetLike | None = None,
    wild: int | None = None,
) -> tuple[int, list[int]]:
    """``(shanten, waits)`` in one go: the waits are found on the way to shanten 0.
    The waits are always empty for a 3n+2 hand."""
    size = _check_size(tiles)
    allowed, kinds = _rules(ruleset)
    distance = _distance_of(tiles, melds, allowed, wild)
    if distance != 1:
        return distance - 1, []
    if size == 2:
        return (0 if ready_discards(tiles, melds, ruleset, wild) else 1), []
    found = _waits(tiles, melds, allowed, kinds, wild)
    return (0 if found else 1), found


def waits(
    tiles: Sequence[int],
    melds: Sequence[Meld] = (),
    ruleset: RulesetLike | None = None,
    wild: int | None = None,
) -> list[int]:
    """Sorted live kinds that complete the 3n+1 hand ``tiles``."""
    if _check_size(tiles) != 1:
        raise InvalidAction(f"{format_tiles(sorted(tiles))!r}: waits need 3n+1 tiles")
    allowed, kinds = _rules(ruleset)
    if _distance_of(tiles, melds, allowed, wild, exact=False) != 1:
        return []
    return _waits(tiles, melds, allowed, kinds, wild)


def _waits(
    tiles: Sequence[int],
    melds: Sequence[Meld],
    allowed: frozenset[str],
    kinds: tuple[int, ...],
    wild: int | None,
) -> list[int]:
    """Waits of a 3n+1 hand known to be one tile from complete."""
    held = _held(tiles, melds)
    if wild is not None:
        return _tried_waits(tiles, melds, allowed, kinds, wild, held)
    found = set(_basic_waits(tiles, bool(melds), allowed & DEFAULT_FORMS, held))
    extra = allowed - DEFAULT_FORMS
    if extra:  # tried only where the hand is one tile from them
        v = view(tiles, melds)
        for name in extra:
            if forms.DISTANCES[name](v) == 1:
                found.update(_tried_waits(tiles, melds, {name}, kinds, None, held))
    in_play = _kind_set(kinds)
    return sorted(k for k in found if k in in_play)


def _tried_waits(
    tiles: Sequence[int],
    melds: Sequence[Meld],
    allowed: Iterable[str],
    kinds: Iterable[int],
    wild: int | None,
    held: Counter[int],
) -> list[int]:
    """Every live kind in play, added and checked."""
    hand = list(tiles)
    out: list[int] = []
    for kind in kinds:
        if held[kind] >= 4:
            continue
        hand.append(kind)
        if forms.complete_in(view(hand, melds, wild), allowed):
            out.append(kind)
        hand.pop()
    return out


def _kind_set(kinds: tuple[int, ...]) -> frozenset[int]:
    """The kinds as a set, kept per tuple by its id (a ruleset's kinds are one tuple;
    hashing 34 ints on every call costs more than the look-up; held here, the tuple
    keeps its id)."""
    found = _KIND_SETS.get(id(kinds))
    if found is None or found[0] is not kinds:
        if len(_KIND_SETS) >= 1024:  # rulesets made one by one stay bounded
            _KIND_SETS.clear()
        found = _KIND_SETS[id(kinds)] = (kinds, frozenset(kinds))
    return found[1]


_KIND_SETS: dict[int, tuple[tuple[int, ...], frozenset[int]]] = {}


def _basic_waits(
    tiles: Sequence[int], melded: bool, allowed: frozenset[str], held: Counter[int]
) -> list[int]:
    """Live waits in the default forms, no wilds: each kind added to its suit's key
    and looked up; seven pairs and thirteen orphans read straight off the counts."""
    found = set(_standard_waits(tiles, lambda k: held[k] < 4)) if STANDARD in allowed else set()
    if not melded and len(tiles) == 13:
        counts = Counter(tiles)
        if SEVEN_PAIRS in allowed:
            found.update(_seven_pairs_waits(counts))
        if THIRTEEN_ORPHANS in allowed:
            found.update(_thirteen_orphans_waits(counts))
    return sorted(k for k in found if held[k] < 4)


def _standard_waits(tiles: Sequence[int], live: Callable[[int], bool]) -> list[int]:
    """The winning tile changes one suit: the other three must already split into sets
    and the pair between them, so only one suit can take it (any suit holding its pair
    when all split). That suit's completing kinds are read from ``_completing``;
    ``live(kind)``: fewer than four of it held."""
    keys, sizes = _suit_keys(tiles)
    split = hand_readings.number_suit_splits(14)  # every number suit of up to 14 tiles
    assert split is not None  # the table holds 14
    state: list[tuple[bool, bool]] = []
    for suit in (0, 1, 2):
        size = sizes[suit]
        if size > 14:
            state.append(suit_tables.suit_complete(suit, keys[suit], size))
        else:
            extra = size % 3
            state.append((extra != 1 and keys[suit] in split, extra == 2))
    state.append(suit_tables.suit_complete(3, keys[3], sizes[3]))
    broken = [s for s in (0, 1, 2, 3) if not state[s][0]]
    if len(broken) > 1:
        return []
    if broken:
        open_suits = broken
    else:  # every suit splits: a suit holding its pair may turn it into a set
        open_suits = [s for s in (0, 1, 2, 3) if state[s][1]]
    pairs = state[0][1] + state[1][1] + state[2][1] + state[3][1]
    found: list[int] = []
    for suit in open_suits:
        elsewhere = pairs - state[suit][1]
        key = keys[suit]
        completing = _COMPLETING[suit].get(key)
        if completing is None:
            completing = _completing(suit, key, sizes[suit])
        for kind, pair in completing:
            if pair + elsewhere == 1 and live(kind):
                found.append(kind)
    return found


def _suit_keys(tiles: Sequence[int]) -> tuple[list[int], list[int]]:
    """The suit keys and sizes of ``tiles`` (as ``suit_tables``); a tuple of tiles the
    readings just counted is not counted again."""
    if tiles is _LAST_COUNTED[0]:
        return list(_LAST_COUNTED[1]), list(_LAST_COUNTED[2])
    keys, sizes = [0, 0, 0, 0], [0, 0, 0, 0]
    suit_of, weight = suit_tables.SUIT_OF, suit_tables.WEIGHT
    for kind in tiles:
        keys[suit_of[kind]] += weight[kind]
        sizes[suit_of[kind]] += 1
    return keys, sizes


# The last concealed tuple the readings counted, with its suit keys and sizes (the
# one-winning-kind question comes next, on the same hand). Held here, the tuple
# cannot be freed, so no other hand can be mistaken for it.
_LAST_COUNTED: list[Any] = [None, (), ()]


def _completing(suit: int, key: int, size: int) -> tuple[tuple[int, bool], ...]:
    """Each kind (in order) whose addition makes one suit's tiles split into sets and at
    most one pair, with whether the pair is then in this suit. Kept per suit key (suits
    repeat far more than hands); a number suit of up to 13 tiles is read from the table
    of number-suit splits, others are tried. Only kinds within two of a tile held can
    join a set."""
    if suit < 3 and size < 14:
        base = 9 * suit
        found = tuple(
            (base + offset, pair)
            for offset, pair in hand_readings.number_suit_completing().get(key, ())
        )
        _COMPLETING[suit][key] = found
        return found
    near: set[int] = set()
    for i in range(7 if suit == 3 else 9):
        if key // suit_tables.POW5[i] % 5:
            near.update(_NEAR[9 * suit + i])
    completing: list[tuple[int, bool]] = []
    for kind in sorted(near):
        weight = suit_tables.WEIGHT[kind]
        if key // weight % 5 == 4:
            continue
        done, with_pair = suit_tables.suit_complete(suit, key + weight, size + 1)
        if done:
            completing.append((kind, with_pair))
    found = _COMPLETING[suit][key] = tuple(completing)
    return found


_COMPLETING: tuple[dict[int, tuple[tuple[int, bool], ...]], ...] = ({}, {}, {}, {})
# A standard-form winning tile pairs with, or is within two of, a tile already held.
_NEAR = tuple(
    tuple(range(max(k - k % 9, k - 2), min(k - k % 9 + 8, k + 2) + 1)) if k < 27 else (k,)
    for k in range(34)
)


def _seven_pairs_waits(counts: Counter[int]) -> list[int]:
    """Six pairs (four of a kind is two) and one odd kind: that kind."""
    odd = [kind for kind, n in counts.items() if n % 2]
    pairs = sum(n // 2 for n in counts.values())
    return odd if pairs == 6 and len(odd) == 1 else []


def _thirteen_orphans_waits(counts: Counter[int]) -> list[int]:
    if not set(counts) <= set(YAOJIU):
        return []
    missing = set(YAOJIU) - set(counts)
    return sorted(YAOJIU) if not missing else list(missing) if len(missing) == 1 else []


def has_one_winning_kind(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    win: int,
    ruleset: RulesetLike | None,
    wild: int | None = None,
    readings: Sequence[Decomposition] | None = None,
) -> bool:
    """Is ``win`` the only live kind that completes the 3n+1 hand ``concealed`` (+
    ``melds``), which ``win`` completes (RULES.md 3.8.6)? ``len(waits(...)) == 1``
    without the full wait list: any other completing kind settles it. ``readings``
    (the hand's ``readings``, if at hand) show most such kinds for free: the other side
    of a two-sided chow, the other pair of a double-pair wait. Dead kinds (four held)
    never count (3.15.1)."""

    def live(kind: int) -> bool:  # a few kinds are asked about: counted one by one
        held = concealed.count(kind)
        for meld in melds:
            held += meld.tiles.count(kind)
        return held < 4

    if readings and any(map(live, _visible_winning_kinds(win, readings))):
        return False
    allowed, kinds = _rules(ruleset)
    in_play = _kind_set(kinds)
    held: list[int] | None = None
    if wild is not None or (not melds and len(concealed) == 13 and len(set(concealed)) <= 7):
        held = [0] * 34  # the wild and seven-pairs checks read every count
        for kind in concealed:
            held[kind] += 1
        for meld in melds:
            for kind in meld.tiles:
                held[kind] += 1
    if wild is not None:
        assert held is not None  # counted above for a wild
        hand = list(concealed)
        for kind in kinds:
            if kind != win and held[kind] < 4:
                hand.append(kind)
                won = forms.complete_in(view(hand, melds, wild), allowed)
                hand.pop()
                if won:
                    return False
        return True
    if STANDARD in allowed:
        for kind in _standard_waits(concealed, live):
            if kind != win and kind in in_play:
                return False
    if _special_shaped(concealed, melds, allowed):
        # The other forms' candidate kinds, each checked straight from the counts.
        counts = [0] * 34
        for kind in concealed:
            counts[kind] += 1
        sets = len(concealed) // 3
        distinct = 34 - counts.count(0)
        for form in _sorted_forms(allowed):
            if form == STANDARD or (melds and form != ZU_HE_LONG):
                continue
            for kind in _special_candidates(form, counts, kinds):
                if kind == win or not live(kind):
                    continue
                now = distinct + (not counts[kind])
                if not _FEWEST_KINDS.get(form, 0) <= now <= _MOST_KINDS.get(form, 34):
                    continue
                counts[kind] += 1
                if form == ZU_HE_LONG:
                    won_readings: Collection[Reading] = hand_readings.zu_he_long(counts, sets)
                else:
                    won_readings = _SPECIAL_READINGS[form](counts)
                counts[kind] -= 1
                if won_readings:
                    return False
        return True
    if SEVEN_PAIRS in allowed and held is not None and not melds and len(concealed) == 13:
        # six pairs and a single hold at most seven kinds (held is counted then)
        odd = [k for k, n in enumerate(held) if n & 1]  # no melds: held is the hand
        if len(odd) != 1 or sum(n >> 1 for n in held) != 6:
            return True  # no seven-pairs wait
        k = odd[0]
        return k == win or held[k] >= 4 or k not in in_play
    return True


def _special_candidates(form: str, counts: list[int], kinds: tuple[int, ...]) -> Sequence[int]:
    """The kinds that could complete ``form`` when added to ``counts`` (a cheap gate
    before the form's own check): 组合龙 needs all nine kinds of a knitted pattern, so
    the added kind is the one missing (any kind when none is); 全不靠 / 七星不靠 need
    every number tile in one pattern, so an honor or a kind of a pattern holding all
    the numbers held; 十三幺 a terminal or honor; seven pairs a kind held once."""
    if form in _KNITTED_FORMS:
        numbers = {k for k in range(27) if counts[k]}
        if form == ZU_HE_LONG:
            missing = [pattern - numbers for pattern in forms.KNITTED]
            if any(not m for m in missing):
                return kinds
            return sorted({next(iter(m)) for m in missing if len(m) == 1})
        fitting = set().union(*(p for p in forms.KNITTED if numbers <= p))
        return sorted(fitting) + [k for k in kinds if k >= 27]
    if form == THIRTEEN_ORPHANS:
        return YAOJIU
    if form == SEVEN_PAIRS:
        return [k for k in kinds if counts[k] % 2]
    return kinds


def _visible_winning_kinds(win: int, readings: Iterable[Decomposition]) -> Iterator[int]:
    """Kinds that visibly complete the same hand: a chow won at one end is also won at
    the other end, a pung won from a pair is also won on the other pair."""
    for d in readings:
        if d.win_block is None or d.form != STANDARD:
            continue
        block = d.blocks[d.win_block]
        if block.meld is not None or block.wilds:
            continue
        if block.shape == CHOW:
            low = block.tiles[0]
            if win == low and low % 9 <= 5:
                yield low + 3
            elif win == low + 2 and low % 9 >= 1:
                yield low - 1
        elif block.shape == PUNG and d.pair is not None:
            yield d.pair.tiles[0]


# Forms a one-tile-more check cannot read from the suit tables.
_SHAPE_FORMS = frozenset(forms.DISTANCES) - {STANDARD, SEVEN_PAIRS}


def _special_shaped(
    concealed: Sequence[int], melds: Sequence[Meld], allowed: frozenset[str]
) -> bool:
    """Could one more tile complete a form other than sets + a pair or seven pairs?
    十三幺 needs twelve distinct terminals and honors, 组合龙 eight of a knitted pattern,
    全不靠 / 七星不靠 thirteen singles whose numbers fit one pattern, 硬八对 and the loose
    绿一色 their own tile counts."""
    if not allowed & _SHAPE_FORMS:
        return False
    distinct = set(concealed)
    if len(distinct) < 8:  # every check below wants eight different kinds or more
        return bool(allowed & _OTHER_SHAPE_FORMS) and not melds
    if THIRTEEN_ORPHANS in allowed and not melds and len(distinct & _YAOJIU_SET) >= 12:
        return True
    if allowed & _KNITTED_FORMS:
        numbers = {k for k in distinct if k < 27}
        for pattern in forms.KNITTED:
            if len(numbers & pattern) >= 8 or (
                len(concealed) == 13 and len(distinct) == 13 and numbers <= pattern
            ):
                return True
    return bool(allowed & _OTHER_SHAPE_FORMS) and not melds


_YAOJIU_SET = frozenset(YAOJIU)
_KNITTED_FORMS = frozenset({QUAN_BU_KAO, QI_XING_BU_KAO, ZU_HE_LONG})
_OTHER_SHAPE_FORMS = _SHAPE_FORMS - _KNITTED_FORMS - {THIRTEEN_ORPHANS}


def ready_discards(
    tiles: Sequence[int],
    melds: Sequence[Meld],
    ruleset: RulesetLike | None,
    wild: int | None = None,
) -> dict[int, list[int]]:
    """For a 3n+2 hand: each discard kind that leaves it ready -> the waits then.
    A wild is never offered as a discard."""
    if _check_size(tiles) != 2:
        raise InvalidAction(f"{format_tiles(sorted(tiles))!r}: discards need 3n+2 tiles")
    allowed, _ = _rules(ruleset)
    if _distance_of(tiles, melds, allowed, wild, exact=False) > 1:
        return {}
    out: dict[int, list[int]] = {}
    for kind in sorted(set(tiles)):
        if kind == wild:
            continue
        rest = list(tiles)
        rest.remove(kind)
        kinds = waits(rest, melds, ruleset, wild)
        if kinds:
            out[kind] = kinds
    return out


def _held(tiles: Iterable[int], melds: Iterable[Meld]) -> Counter[int]:
    held = Counter(tiles)
    for meld in melds:
        held.update(meld.tiles)
    return held


# ----- decompositions ----------------------------------------------------------------


def decompose(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    win: int,
    ruleset: RulesetLike | None,
    *,
    tsumo: bool = True,
    wild: int | None = None,
) -> list[Decomposition]:
    """Every reading of ``concealed`` + ``win`` (+ ``melds``) as a win, once per
    distinct (reading, block holding the winning tile). Empty if it is no win. The
    "edge", "closed" and "pair" waits are checked against the one-winning-kind rule
    (``readings`` leaves that to the caller)."""
    out = readings(concealed, melds, win, ruleset, tsumo=tsumo, wild=wild)
    # Single-kind waits need the hand's winning kinds: asked only when one may count.
    if any(d.wait in SINGLE_KIND_WAITS for d in out) and not has_one_winning_kind(
        concealed, melds, win, ruleset, wild, out
    ):
        out = [replace(d, wait="other") if d.wait in SINGLE_KIND_WAITS else d for d in out]
    return out


def readings(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    win: int,
    ruleset: RulesetLike | None,
    *,
    tsumo: bool = True,
    wild: int | None = None,
) -> list[Decomposition]:
    """``decompose`` without the one-winning-kind question (what scoring asks, lazily,
    with ``has_one_winning_kind``): the same readings in the same order, but a winning
    tile in an edge, closed or pair position is labelled "edge", "closed" or "pair"
    whatever the hand's other winning kinds. Empty if it is no win."""
    if len(concealed) % 3 != 1:
        return []
    allowed, _ = _rules(ruleset)
    if wild is None:
        return _plain_readings(concealed, melds, win, allowed, tsumo)
    hand = list(concealed) + [win]
    if not forms.complete_in(view(hand, melds, wild), allowed):
        return []
    meld_blocks = tuple(_meld_block(m, wild) for m in melds)
    out: list[Decomposition] = []
    for form, reading in _readings(hand, melds, allowed, wild, tsumo):
        out.extend(_placements(form, reading, meld_blocks, face(win, wild), tsumo, True, wild))
    return out


def _plain_readings(
    concealed: Sequence[int], melds: Sequence[Meld], win: int, allowed: frozenset[str], tsumo: bool
) -> list[Decomposition]:
    """The readings of a hand without wilds: the standard form from each suit's splits
    (``hand_readings.standard_splits``), the special forms only where their shape can apply."""
    counts = [0] * 34
    keys, sizes = [0, 0, 0, 0], [0, 0, 0, 0]
    suit_of, weight = suit_tables.SUIT_OF, suit_tables.WEIGHT
    for kind in concealed:
        counts[kind] += 1
        keys[suit_of[kind]] += weight[kind]
        sizes[suit_of[kind]] += 1
    if concealed.__class__ is tuple:  # immutable: safe to remember (see _suit_keys)
        _LAST_COUNTED[:] = concealed, tuple(keys), tuple(sizes)
    counts[win] += 1
    keys[suit_of[win]] += weight[win]
    sizes[suit_of[win]] += 1
    size = len(concealed) + 1
    found = [(STANDARD, reading) for reading in hand_readings.standard_splits(keys, sizes)]
    specials = _special_readers(allowed)
    if specials:
        distinct = 34 - counts.count(0)
        for form, fewest, most, read in specials:
            if fewest <= distinct <= most and (not melds or form == ZU_HE_LONG):
                if form == ZU_HE_LONG and not _knitted_straight_held(keys):
                    continue
                found.extend((form, reading) for reading in sorted(read(counts, size)))
        if len(found) > 1:  # in form order, as the other readings
            found.sort(key=itemgetter(0))  # stable: each form's own order kept
    if not found:
        return []
    meld_blocks = tuple(_plain_meld_block(m) for m in melds)
    out: list[Decomposition] = []
    for form, reading in found:
        out.extend(_plain_placements(form, reading, meld_blocks, win, tsumo))
    return out


@lru_cache(maxsize=64)
def _special_readers(allowed: frozenset[str]) -> tuple[tuple[str, int, int, _Reader], ...]:
    """The allowed forms other than the standard one, each with the distinct kinds its
    14 tiles can hold (a cheap gate) and its reader ``(counts, size) -> readings``."""
    out: list[tuple[str, int, int, _Reader]] = []
    for form in _sorted_forms(allowed):
        if form == STANDARD:
            continue
        if form == ZU_HE_LONG:  # nine knitted kinds, then sets and a pair
            out.append((form, 9, 34, _zu_he_long))
        else:  # each checks its own tile count
            out.append(
                (
                    form,
                    _FEWEST_KINDS.get(form, 0),
                    _MOST_KINDS.get(form, 34),
                    _special_reader(_SPECIAL_READINGS[form]),
                )
            )
    return tuple(out)


def _knitted_straight_held(keys: Sequence[int]) -> bool:
    """Do the number suits (base-5 keys, as ``suit_tables``) hold a whole knitted
    straight (147, 258 and 369, one per suit)? A cheap gate before 组合龙's readings."""
    held = _KNITTED_THIRDS.get
    thirds = [held(keys[suit]) for suit in (0, 1, 2)]
    for suit in (0, 1, 2):
        if thirds[suit] is None:
            key = keys[suit]
            thirds[suit] = _KNITTED_THIRDS[key] = sum(
                1 << i
                for i, ranks in enumerate(((0, 3, 6), (1, 4, 7), (2, 5, 8)))
                if all(key // 5**r % 5 for r in ranks)
            )
    return tuple(thirds) in _KNITTED_SUITS


_KNITTED_THIRDS: dict[int, int] = {}  # number-suit key -> which of 147/258/369 it holds
# The (m, p, s) masks of held thirds that give each suit a different one.
_KNITTED_SUITS = frozenset(
    (a, b, c)
    for a in range(8)
    for b in range(8)
    for c in range(8)
    if any(a >> x & b >> y & c >> z & 1 for x, y, z in permutations(range(3)))
)


def _zu_he_long(counts: list[int], size: int) -> Collection[Reading]:
    return hand_readings.zu_he_long(counts, (size - 1) // 3) if size >= 11 else ()


def _special_reader(read: Callable[[list[int]], Collection[Reading]]) -> _Reader:
    return lambda counts, size: read(counts)


def _plain_placements(
    form: str, reading: Reading, meld_blocks: tuple[Block, ...], win: int, tsumo: bool
) -> Iterator[Decomposition]:
    """``_placements`` for parts without wilds: each block made once per part."""
    blocks: tuple[Block, ...] | None = None
    seen: set[Part] = set()
    for position, part in enumerate(reading):
        if win not in part[1] or part in seen:
            continue
        seen.add(part)
        if blocks is None:
            blocks = meld_blocks + tuple(map(_PLAIN_BLOCKS.__getitem__, reading))
        index = len(meld_blocks) + position
        placed = blocks
        if part[0] == PUNG and not tsumo:  # a pung completed by a discard is exposed
            exposed = list(blocks)
            exposed[index] = Block(PUNG, part[1], False, None, 0)
            placed = tuple(exposed)
        yield _decomposition(form, placed, index, _wait(form, part, win, True))


class _Blocks(dict[Part, Block]):
    """Parts without wilds are few: one Block each, made on first use and kept."""

    def __missing__(self, part: Part) -> Block:
        found = self[part] = Block(part[0], part[1])
        return found


_PLAIN_BLOCKS = _Blocks()
# A Decomposition from fields known to be right, without the frozen dataclass's
# ``__init__`` (one per reading on the scoring path): its slots set directly.
_SET_FIELDS = tuple(
    getattr(Decomposition, name).__set__ for name in ("form", "blocks", "win_block", "wait")
)


def _decomposition(
    form: str, blocks: tuple[Block, ...], win_block: int | None, wait: str
) -> Decomposition:
    out = object.__new__(Decomposition)
    set_form, set_blocks, set_win_block, set_wait = _SET_FIELDS
    set_form(out, form)
    set_blocks(out, blocks)
    set_win_block(out, win_block)
    set_wait(out, wait)
    return out


_SPECIAL_READINGS: dict[str, Callable[[list[int]], Collection[Reading]]] = {
    SEVEN_PAIRS: hand_readings.seven_pairs,
    THIRTEEN_ORPHANS: hand_readings.thirteen_orphans,
    QUAN_BU_KAO: lambda counts: hand_readings.knitted_singles(counts, 0),
    QI_XING_BU_KAO: lambda counts: hand_readings.knitted_singles(counts, 7),
    LV_YI_SE_LOOSE: hand_readings.lv_yi_se_loose,
    YING_BA_DUI: hand_readings.ying_ba_dui,
    SAN_CAI_SHEN: lambda counts: (),  # needs the wilds
}


# Distinct kinds a 14-tile special form holds, at least / at most: a cheap gate.
_FEWEST_KINDS = {THIRTEEN_ORPHANS: 13, QUAN_BU_KAO: 14, QI_XING_BU_KAO: 14}
_MOST_KINDS = {SEVEN_PAIRS: 7, THIRTEEN_ORPHANS: 13}


@lru_cache(maxsize=64)
def _sorted_forms(allowed: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(allowed))


@lru_cache(maxsize=1024)
def _plain_meld_block(meld: Meld) -> Block:
    return _meld_block(meld, None)


def _readings(
    hand: list[int], melds: Sequence[Meld], allowed: frozenset[str], wild: int, tsumo: bool
) -> Iterator[tuple[str, Reading]]:
    """(form, reading) of a hand with wilds, in form order (``_plain_readings`` reads
    the hands without)."""
    v = view(hand, melds, wild)
    counts = hand_readings.counts_of(v.faces)
    for form in _sorted_forms(allowed):
        if form == STANDARD:
            found: Collection[Reading] = hand_readings.standard(counts, v.jokers, v.sets, wild)
        elif form == ZU_HE_LONG:
            found = hand_readings.zu_he_long(counts, v.sets)
        elif form == YING_BA_DUI:
            found = _ying_ba_dui(counts, v, melds)
        elif form == SAN_CAI_SHEN:
            found = (
                hand_readings.san_cai_shen(counts, v.jokers, wild)
                if tsumo and wild is not None
                else ()
            )
        elif melds:
            continue
        else:
            found = _SPECIAL_READINGS[form](counts)
        for reading in sorted(found):
            yield form, reading


def _ying_ba_dui(counts: list[int], v: View, melds: Sequence[Meld]) -> set[Reading]:
    """硬八对 with the 财神 at their own face (9.3). They stay marked as wilds in the
    parts, so a winning tile that is itself a 财神 has a slot (``_win_slots``)."""
    if melds:
        return set()
    own_face = list(counts)
    if v.wild is None or not v.jokers:
        return hand_readings.ying_ba_dui(own_face)
    own_face[v.wild] += v.jokers
    out: set[Reading] = set()
    for reading in hand_readings.ying_ba_dui(own_face):
        left = v.jokers
        parts: list[Part] = []
        for shape, tiles, jokers in reading:
            if left and tiles[0] == v.wild:
                used = min(left, len(tiles))
                left -= used
                jokers = (v.wild,) * used
            parts.append((shape, tiles, jokers))
        out.add(tuple(sorted(parts)))
    return out


def _meld_block(meld: Meld, wild: int | None) -> Block:
    tiles = tuple(sorted(face(t, wild) if face(t, wild) >= 0 else t for t in meld.tiles))
    return Block(_MELD_SHAPES[meld.type], tiles, concealed=meld.type == "ankan", meld=meld.type)


def _placements(
    form: str,
    reading: Reading,
    meld_blocks: tuple[Block, ...],
    win_face: int,
    tsumo: bool,
    one_kind: bool,
    wild: int | None,
) -> Iterator[Decomposition]:
    """One Decomposition per distinct part of ``reading`` the winning tile can be in."""
    seen: set[tuple[Part, int]] = set()
    for part in reading:
        for played in _win_slots(part, win_face):
            if (part, played) in seen:
                continue
            seen.add((part, played))
            blocks = list(meld_blocks) + [_block(p, wild) for p in reading]
            index = len(meld_blocks) + reading.index(part)
            if blocks[index].shape == PUNG and not tsumo:
                blocks[index] = Block(PUNG, blocks[index].tiles, False, None, blocks[index].wilds)
            wait = _wait(form, part, played, one_kind)
            yield Decomposition(form, tuple(blocks), index, wait)


def _win_slots(part: Part, win_face: int) -> list[int]:
    """Kinds the winning tile may play in ``part``: its own kind if a real tile of it is
    there, any wild slot's kind if the winning tile is itself a wild."""
    shape, tiles, jokers = part
    if win_face < 0:
        return sorted(set(jokers))
    real = list(tiles)
    for k in jokers:
        real.remove(k)
    return [win_face] if win_face in real else []


def _block(part: Part, wild: int | None) -> Block:
    shape, tiles, jokers = part
    return Block(shape, tiles, wilds=sum(1 for k in jokers if k != wild))


def _wait(form: str, part: Part, played: int, one_kind: bool) -> str:
    """The wait the winning tile filled. Edge, closed and single (pair) waits count only
    when the hand could be completed by exactly one kind (RULES.md 3.8.6); otherwise
    they read "other"."""
    shape, tiles, _ = part
    if form not in (STANDARD, ZU_HE_LONG) or shape not in (PUNG, PAIR, CHOW):
        return "other"
    if shape == PUNG:
        return "pung"
    wait = "pair" if shape == PAIR else _chow_wait(tiles[0], played)
    return wait if wait == "two_sided" or one_kind else "other"


def _chow_wait(low: int, played: int) -> str:
    if played == low + 1:
        return "closed"
    if (played == low and low % 9 == 6) or (played == low + 2 and low % 9 == 0):
        return "edge"
    return "two_sided"


# ----- input checks (the CLI and other boundaries) ------------------------------------


def check_hand(
    tiles: Sequence[int], melds: Sequence[Meld] = (), ruleset: RulesetLike | None = None
) -> None:
    """Raise InvalidAction unless ``tiles`` + ``melds`` could be a hand under ``ruleset``:
    3n+1 or 3n+2 concealed tiles, at most a full hand (melds counted as 3; fewer tiles
    stand for a hand whose melds are not given), no kind beyond its 4 copies, every kind
    in play (flowers are never part of a hand)."""
    _check_size(tiles)
    _, kinds = _rules(ruleset)
    distinct = set(tiles)
    if not distinct <= _kind_set(kinds):
        outside = sorted(distinct - _kind_set(kinds))
        where = f"in {ruleset.slug}" if ruleset is not None else "in a hand"
        raise InvalidAction(f"{_label(tiles)!r}: {format_tiles(outside)} not allowed {where}")
    limit = (ruleset.hand_size if ruleset is not None else 13) + 1
    size = len(tiles) + 3 * len(melds)
    if size > limit:
        raise InvalidAction(f"{_label(tiles)!r}: {size} tiles, a hand has at most {limit}")
    if not melds and len(tiles) - len(distinct) < 4:
        return  # a kind with five copies would leave four repeats
    for kind, count in _held(tiles, melds).items():
        if count > 4:
            raise InvalidAction(f"{_label(tiles)!r}: {count} copies of {format_tiles([kind])}")


def _label(tiles: Sequence[int]) -> str:
    return format_tiles(sorted(tiles))
