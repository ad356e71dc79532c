"""The measures of the hand review (``review``): what a decision's option leaves the seat,
its shanten, and the unseen tiles that would improve it.

Every option is read as the *position* it leaves: the concealed tiles and melds the seat
holds when it next waits for a tile (3n+1 tiles). A discard or 报听 leaves the hand
without that tile; a pass (or 过胡) keeps the hand, the drawn tile let go; a chi or pon
leaves the hand after the claim *and its best discard*; a kong leaves the hand before
its replacement draw (that tile is the wall's, unknown to the seat); a win is complete
(shanten -1, nothing to accept).

A position's shanten is the engine's (``hand.shanten``: every winning form of the
ruleset, wilds, dead waits). Its acceptance is the number of unseen copies of the kinds
that lower it: for a ready hand its waits (where the ruleset has a minimum fan, only
the waits that can reach it, as the waits hint counts them); further away, the kinds
whose draw leaves a lower shanten. Unseen copies come from ``bots.seen.read_view`` of
the seat's own view: every copy minus its concealed tiles, both rivers, the melds shown
(an opponent's concealed kong shows no tiles, so it counts as unseen), the tiles shown in
海底捞月, the kong tile being robbed and the 财神 indicator; never the wall or the
opponent's concealed hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from . import hand as hand_analysis
from . import hand_forms
from .actions import Action
from .flow import own_tiles_for
from .hand_forms import GREEN_KINDS, face
from .melds import Meld
from .rulesets import Ruleset
from .shapes import (
    LV_YI_SE_LOOSE,
    QI_XING_BU_KAO,
    QUAN_BU_KAO,
    STANDARD,
    THIRTEEN_ORPHANS,
    ZU_HE_LONG,
)
from .state import GameState
from .suit_tables import SUIT_OF, WEIGHT, distance_with, others, standard_distance
from .tiles import NEAR_KINDS, YAOJIU
from .wins import scores_the_minimum

COMPLETE = -1  # the shanten of a win
# Verbs whose position the review reads; others (the stage's offers) it leaves unmeasured.
MEASURED = frozenset(
    {"discard", "ting", "hu", "pass", "guo", "chi", "pon", "kan", "ankan", "addkan"}
)


@dataclass(frozen=True, slots=True)
class Position:
    """What an option leaves the seat waiting with (3n+1 concealed tiles, sorted)."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]


@dataclass(frozen=True, slots=True)
class Measure:
    shanten: int
    acceptance: int  # unseen copies of ``kinds``
    kinds: tuple[int, ...]  # the kinds that improve the position (with unseen copies)

    @property
    def key(self) -> tuple[int, int]:
        """Smaller is better: lower shanten first, then more accepted tiles."""
        return self.shanten, -self.acceptance


WIN = Measure(COMPLETE, 0, ())
KNITTED_FORMS = frozenset({QUAN_BU_KAO, QI_XING_BU_KAO, ZU_HE_LONG})  # any kind may fit


class Measurer:
    """The measures of one seat's positions over one hand. Each position's shanten and
    improving kinds are kept (they do not change within a hand); the acceptance is
    counted at each decision from what the seat sees then."""

    def __init__(self, ruleset: Ruleset, wild: int | None) -> None:
        self.ruleset = ruleset
        self.wild = wild
        self._shapes: dict[Position, tuple[int, tuple[int, ...]]] = {}
        self._views: dict[Position, tuple[hand_forms.View, dict[str, int]]] = {}
        self._winnable: dict[tuple[object, ...], bool] = {}

    # ----- an option's position -------------------------------------------------------
    def option(
        self, state: GameState, seat: int, action: Action, unseen: Sequence[int]
    ) -> Measure | None:
        """The measure of ``action`` offered to ``seat`` now; None if not measured."""
        if action.verb not in MEASURED:
            return None
        if action.verb == "hu":
            return WIN
        if action.verb in ("chi", "pon"):
            return self.best_discard(state, seat, self.claimed(state, seat, action), unseen)
        return self.measure(state, seat, self.position(state, seat, action), unseen)

    def position(self, state: GameState, seat: int, action: Action) -> Position:
        """The position a discard, 报听, pass or kong leaves (chi and pon: ``claimed``)."""
        player = state.seat(seat)
        verb = action.verb
        if verb in ("discard", "ting"):
            return Position(_without(player.hand, (action.tile,)), player.melds)
        if verb in ("pass", "guo"):  # a self-drawn win let go: its tile goes out
            return Position(tuple(sorted(player.concealed)), player.melds)
        if verb == "ankan":
            meld = Meld("ankan", (action.tile,) * 4)
            return Position(_without(player.hand, meld.tiles), player.melds + (meld,))
        if verb == "addkan":
            melds = tuple(
                Meld("kan", m.tiles + (action.tile,))
                if m.type == "pon" and m.tiles[0] == action.tile
                else m
                for m in player.melds
            )
            return Position(_without(player.hand, (action.tile,)), melds)
        return self.claimed(state, seat, action)  # kan: before its replacement draw

    def claimed(self, state: GameState, seat: int, action: Action) -> Position:
        """The hand after claiming the discard (chi/pon: 3n+2 tiles, a discard to come)."""
        own = own_tiles_for(state, seat, action.verb, action.tiles)
        meld = Meld(action.verb, tuple(sorted((action.tiles[0], *own))))
        player = state.seat(seat)
        return Position(_without(player.concealed, own), player.melds + (meld,))

    def best_discard(
        self, state: GameState, seat: int, claimed: Position, unseen: Sequence[int]
    ) -> Measure:
        """A chi or pon is worth the best position its discard can leave. A position's
        shanten is at least its distance less one, so the positions are measured from the
        nearest on, until none further can tie the best."""
        kinds = sorted({t for t in claimed.concealed if t != self.wild})
        positions = [Position(_without(claimed.concealed, (k,)), claimed.melds) for k in kinds]
        best = Measure(99, 0, ())
        for distance, position in sorted(
            ((self.distance(p), p) for p in positions), key=lambda pair: pair[0]
        ):
            if distance - 1 > best.shanten:
                break
            found = self.measure(state, seat, position, unseen)
            if found.key < best.key:
                best = found
        return best

    # ----- a position's measure -------------------------------------------------------
    def measure(
        self, state: GameState, seat: int, position: Position, unseen: Sequence[int]
    ) -> Measure:
        shanten, kinds = self.shape(position)
        if shanten == 0 and self.ruleset.min_fan:
            kinds = tuple(k for k in kinds if self._can_win(state, seat, position, k))
        live = tuple(k for k in kinds if unseen[k])
        return Measure(shanten, sum(unseen[k] for k in live), live)

    def shape(self, position: Position) -> tuple[int, tuple[int, ...]]:
        """(shanten, kinds whose draw lowers it) of a 3n+1 position."""
        found = self._shapes.get(position)
        if found is None:
            found = self._shapes[position] = self._shape(position)
        return found

    def distance(self, position: Position) -> int:
        """The fewest tiles to add for a complete hand in any of the ruleset's forms."""
        return min(self._distances(position)[1].values())

    def _distances(self, position: Position) -> tuple[hand_forms.View, dict[str, int]]:
        """The position's view and each winning form's distance (the forms that cannot
        apply left out)."""
        found = self._views.get(position)
        if found is None:
            v = hand_forms.view(position.concealed, position.melds, self.wild)
            distances = {}
            for name in self.ruleset.forms:
                d = hand_forms.DISTANCES[name](v)
                if d is not None:
                    distances[name] = d
            found = self._views[position] = (v, distances)
        return found

    def _shape(self, position: Position) -> tuple[int, tuple[int, ...]]:
        """``hand.shanten`` and the draws that lower it, the work shared between them:
        one view of the hand, then a suit-key lookup per draw that may matter."""
        tiles, melds = position.concealed, position.melds
        v, distances = self._distances(position)
        distance = min(distances.values())
        # A draw lowers a form's distance by one at most: only the forms at the least
        # distance can lower it.
        nearest = frozenset(name for name, d in distances.items() if d == distance)
        # A kind the seat holds four of (melds too) cannot be drawn: a ready hand's
        # dead wait (RULES.md 3.15.1), and no improvement either.
        held = Counter(tiles)
        held.update(t for m in melds for t in m.tiles)
        tight = _tight(v)
        rest = others(v.keys)
        better = tuple(
            k
            for k in self._candidates(tiles, held, v.jokers, nearest)
            if held[k] < 4 and self._lowers(v, tight, rest, k, nearest, distance)
        )
        if distance == 1:  # ready on its live waits, as ``hand.waits``
            if better:
                return 0, better
            return 1, self._brute_force(position, 1, held)  # every wait dead: rare
        # A 3n+2 hand one tile from complete can always discard to a live wait, so a draw
        # that lowers the distance lowers the shanten as much (tests/engine/test_review.py
        # checks these shortcuts against ``hand.shanten``).
        return distance - 1, better

    def _brute_force(self, position: Position, shanten: int, held: Counter[int]) -> tuple[int, ...]:
        rs, wild, tiles, melds = self.ruleset, self.wild, position.concealed, position.melds
        return tuple(
            k
            for k in rs.kinds
            if held[k] < 4 and hand_analysis.shanten(tiles + (k,), melds, rs, wild) < shanten
        )

    def _lowers(
        self,
        v: hand_forms.View,
        tight: _Tight,
        rest: tuple[int, int, int, int],
        kind: int,
        forms: frozenset[str],
        below: int,
    ) -> bool:
        """Is the distance of the hand ``v`` with ``kind`` drawn below ``below`` in one of
        ``forms``? In the standard form only the drawn tile's suit key changes, and the
        distance that ignores the copies melds hold, from the prebuilt tables, is exact
        unless a plan that short could ask for more copies of a kind than the melds leave
        (``tight``): only then is the capped one computed."""
        played = face(kind, self.wild)
        jokers = v.jokers + (played < 0)
        keys = v.keys
        sets = v.size // 3  # the 3n+2 tiles' sets
        if played >= 0:
            keys = list(keys)
            suit = SUIT_OF[played]
            keys[suit] += WEIGHT[played]
        if STANDARD in forms:
            if played >= 0:
                missing = distance_with(rest[suit], suit, keys[suit], sets)
            else:
                missing = standard_distance(keys, sets)
            if missing - jokers < below:
                if v.caps is None or all(
                    held + (face_ == played) + missing <= cap for face_, cap, held in tight
                ):
                    return True
                if standard_distance(keys, sets, v.caps) - jokers < below:
                    return True
            if len(forms) == 1:
                return False
        drawn = _drawn_view(v, played, keys)
        for name in forms - {STANDARD}:
            d = hand_forms.DISTANCES[name](drawn)
            if d is not None and d < below:
                return True
        return False

    def _candidates(
        self, tiles: tuple[int, ...], held: Counter[int], jokers: int, forms: frozenset[str]
    ) -> Sequence[int]:
        """The kinds whose draw may lower the distance in ``forms``. In the standard form
        and the pair forms an isolated tile completes nothing that a tile already held
        could not: only a kind that a held tile's face is, or is next to or one apart
        from, and a wild; the orphans and green forms add their tiles. Any kind may help
        the knitted forms, a hand holding a wild (it pairs any tile), and one holding a
        tile whose kind it holds four of with its melds (that tile can never pair: a new
        one can)."""
        rs, wild = self.ruleset, self.wild
        if forms & KNITTED_FORMS or jokers or any(held[t] >= 4 for t in tiles):
            return rs.kinds
        faces = [face(kind, wild) for kind in range(34)]
        near: set[int] = set()
        for tile in tiles:
            played = faces[tile]
            if played >= 0:
                near.update(NEAR_KINDS[played])
        if THIRTEEN_ORPHANS in forms:
            near.update(YAOJIU)
        if LV_YI_SE_LOOSE in forms:
            near.update(GREEN_KINDS)
        return [k for k in rs.kinds if faces[k] < 0 or faces[k] in near]

    def _can_win(self, state: GameState, seat: int, position: Position, kind: int) -> bool:
        """gb's minimum fan (the waits hint's rule): can a win on ``kind`` reach it?"""
        player = state.seat(seat)
        key = (position, kind, player.flowers, player.ting, player.guo)
        found = self._winnable.get(key)
        if found is None:
            holding = state.replace_seat(seat, melds=position.melds)
            found = self._winnable[key] = scores_the_minimum(
                holding, seat, position.concealed, kind
            )
        return found


# Kinds whose copies melds hold: (face, copies left to the hand, copies in the hand).
_Tight = tuple[tuple[int, int, int], ...]


def _tight(v: hand_forms.View) -> _Tight:
    if v.caps is None:
        return ()
    held = Counter(v.faces)
    return tuple(
        (kind, cap, held[kind])
        for suit, caps in enumerate(v.caps)
        if caps is not None
        for kind, cap in zip(range(9 * suit, 9 * suit + len(caps)), caps)
        if cap < 4
    )


def _drawn_view(v: hand_forms.View, played: int, keys: list[int]) -> hand_forms.View:
    """``hand_forms.view`` of the 3n+1 hand ``v`` with a tile drawn that plays as
    ``played`` (-1: a wild), ``keys`` its suit keys then (the forms read the faces in any
    order)."""
    sets = v.size // 3  # of 3n+2 tiles
    if played < 0:
        return v._replace(jokers=v.jokers + 1, size=v.size + 1, sets=sets)
    sizes = list(v.sizes)
    sizes[SUIT_OF[played]] += 1
    return v._replace(faces=v.faces + (played,), size=v.size + 1, sets=sets, keys=keys, sizes=sizes)


def _without(tiles: Sequence[int], used: Sequence[int]) -> tuple[int, ...]:
    rest = list(tiles)
    for t in used:
        rest.remove(t)
    return tuple(sorted(rest))
