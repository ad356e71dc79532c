"""The ``strong`` bot: ``efficient`` plus value, risk and the 过胡 gamble.

Every candidate hand (what a discard or a claim leaves) gets an *expected value* in
settlement points: the chance of completing it before the wall runs out times what it
would pay.

* A ready hand is valued exactly: each live wait is scored by the ruleset's own scorer
  (``fans.score_win``) and paid by ``settlement.settle``, so a wait that cannot win (gb's
  8-fan minimum) is worth nothing and a flush wait is worth its flush.
* A hand further away is valued by targets the ruleset pays for: a flush (清一色/混一色),
  all pungs, seven pairs, dragon pungs, the concealed-hand and 报听 fans, flowers. Each
  target's shanten is computed on the tiles that fit it (the others are discards to
  come), and the fan values come from the ruleset's fan table.
* Defence: against an opponent who declared ready, or whose melds and the late wall
  make a win likely, each discard pays a penalty of (chance it deals in) x (what the
  opponent's win would cost).
* A win is taken unless waiting is worth more: quesheng's 过胡 doubles the fan, so it
  passes while the chance of another win before the opponent's is high enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from types import SimpleNamespace
from typing import cast

from ..actions import Action
from ..fans import ScoreResult, score_win, table_for
from ..melds import Meld
from ..rulesets import Ruleset
from ..settlement import Table, settle
from ..shapes import DISCARD_WIN, SELF_DRAW, Outcome, WinContext
from ..state import CLAIM, TURN
from .efficient import (
    HU,
    Analyst,
    EfficientBot,
    _decline,
    _ready_or_discard,
    claim_outcome,
    counts_of,
    discard_kinds,
)
from .seen import Seen
from .shanten import NO_HAND, pungs_shanten, seven_pairs_shanten, standard_shanten

DRAGONS = (31, 32, 33)
_TYPICAL_FAN = {"classic": 5, "quesheng": 16, "gb": 12, "tiao72": 10, "wenzhou": 2, "stage": 5}


# ----- what the ruleset pays --------------------------------------------------------------
class Payer:
    """Fan values of the ruleset (with room overrides) and points for a fan total."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.rs = ruleset
        table = table_for(ruleset)
        self._values = {
            key: ruleset.fan_values.get(key, fan.value) for key, fan in table.by_key.items()
        }

    def fan(self, *keys: str) -> int:
        for key in keys:
            if key in self._values:
                return self._values[key]
        return 0

    def points(self, fan: float, tsumo: bool) -> float:
        return _points(self.rs, round(fan), tsumo)


@lru_cache(maxsize=4096)
def _points_cached(rs_id: int, slug: str, fan: int, tsumo: bool, rs_holder: _Holder) -> float:
    rs = rs_holder[0]
    outcome = Outcome(SELF_DRAW if tsumo else DISCARD_WIN, winner=0, loser=1)
    # a stand-in with the fields of a ScoreResult that settle reads
    score = cast(ScoreResult, SimpleNamespace(is_win=True, legal=True, total=fan, yakuman=()))
    return settle(rs, outcome, score, Table(base=1)).delta(0)


def _points(rs: Ruleset, fan: int, tsumo: bool) -> float:
    if fan <= 0:
        return 0.0
    return _points_cached(id(rs), rs.slug, fan, tsumo, _Holder(rs))


class _Holder(tuple[Ruleset]):
    """Keeps a ruleset reachable from the cache key without hashing it."""

    def __new__(cls, rs: Ruleset) -> _Holder:
        return super().__new__(cls, (rs,))

    def __hash__(self) -> int:
        return id(self[0])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Holder) and other[0] is self[0]


# ----- the odds -----------------------------------------------------------------------
KEEP_PACE = 0.8  # value may choose among the fastest discards only: 80% of the best tiles
FOLD_FROM = 2  # shanten from which a hand defends against a ready opponent
SLACK = 1  # against a ready opponent: discards one step slower are weighed too
HAZARD = 0.12  # per turn: the opponent wins first (a rough pace of play)
MID_STEP = 0.22  # per draw: a later step towards ready, whose tiles are not known yet
OPPONENT_PACE = 0.06  # per turn: an opponent not known to be ready wins
DEAL_IN = 0.25  # chance a dangerous tile deals in to a ready hand, over the turns to come
READY_WAITS = 6  # live copies a future ready hand will wait on, typically


def chance_to_complete(
    shanten: int, improving: float, unseen_total: int, turns: int, hazard: float = HAZARD
) -> float:
    """P(the hand completes within ``turns`` of this player's turns, before the
    opponent wins). Step one finds one of the ``improving`` copies per draw; later steps
    a typical share; the ready hand wins on its draw or the opponent's discard."""
    if shanten < 0:
        return 1.0
    return _chance(
        shanten, round(improving), max(1, unseen_total), max(0, min(turns, 40)), round(hazard, 2)
    )


@lru_cache(maxsize=65536)
def _chance(shanten: int, improving: int, unseen_total: int, turns: int, hazard: float) -> float:
    if improving <= 0 or turns <= 0:
        return 0.0
    first = min(0.6, improving / unseen_total)
    if shanten == 0:
        steps = []
        final = 1 - (1 - first) ** 2
    else:
        steps = [first] + [MID_STEP] * (shanten - 1)
        final = 1 - (1 - min(0.5, READY_WAITS / unseen_total)) ** 2
    probs = [1.0] + [0.0] * len(steps)  # probability of being at each step
    won = 0.0
    for _ in range(turns):
        nxt = [0.0] * len(probs)
        for i, mass in enumerate(probs):
            if not mass:
                continue
            if i < len(steps):
                nxt[i + 1] += mass * steps[i]
                nxt[i] += mass * (1 - steps[i])
            else:
                won += mass * final
                nxt[i] += mass * (1 - final)
        probs = [m * (1 - hazard) for m in nxt]
    return won


class StrongBot(EfficientBot):
    level = "strong"

    # ----- shared per decision ------------------------------------------------------
    def _setup(self, seen: Seen) -> None:
        self.payer = Payer(seen.ruleset)
        self.analyst = Analyst(seen)
        self.unseen_total = max(1, sum(seen.unseen))
        self.threat = _threat(seen)
        self.passed = seen.passed_since_ready
        self.hazard = HAZARD + 0.15 * self.threat
        self.opp_value = self.payer.points(_TYPICAL_FAN.get(seen.ruleset.scoring, 8), False) * (
            1.5 if seen.opp_ting else 1.0
        )

    def decide(self, seen: Seen, actions: list[Action]) -> Action:
        self._setup(seen)
        return super().decide(seen, actions)

    # ----- valuing a 3n+1 hand -------------------------------------------------------
    def hand_value(
        self,
        seen: Seen,
        counts: list[int],
        melds: tuple[Meld, ...],
        improving: int | None = None,
        shanten: int | None = None,
    ) -> float:
        sets_needed = seen.ruleset.sets_in_hand - len(melds)
        if shanten is None:
            shanten = self.analyst.shanten(counts, sets_needed)
        if improving is None:
            improving, _ = self.analyst.improving(counts, sets_needed, shanten)
        draws = seen.my_draws_left
        if shanten == 0:
            best = self._ready_value(seen, counts, melds, draws)
        else:
            best = 0.0
        concealed = all(m.type == "ankan" for m in melds)
        base = self._base_fan(seen, counts, melds, concealed)
        for fan, target_shanten in self._targets(seen, counts, melds, sets_needed):
            if target_shanten == 0 and shanten == 0:
                continue  # valued exactly above
            if target_shanten >= NO_HAND or target_shanten > shanten + 2:
                continue
            total = fan + base
            if seen.ruleset.min_fan and total < seen.ruleset.min_fan:
                total *= 0.3
            u = improving if target_shanten == shanten else MID_STEP * self.unseen_total
            p = chance_to_complete(target_shanten, u, self.unseen_total, draws, self.hazard)
            value = p * 0.5 * (self.payer.points(total, True) + self.payer.points(total, False))
            best = max(best, value)
        return best

    def _ready_value(
        self, seen: Seen, counts: list[int], melds: tuple[Meld, ...], draws: int
    ) -> float:
        unseen = seen.unseen
        hand = tuple(k for k in range(34) for _ in range(counts[k]))
        sets_needed = seen.ruleset.sets_in_hand - len(melds)
        total_live = 0
        paid = 0.0
        kinds = [k for k in range(34) if unseen[k] and counts[k] < 4]
        after = self.analyst.after_draws(counts, sets_needed, kinds)
        for kind in (k for k, s in zip(kinds, after) if s < 0):
            value = self._win_points(seen, hand, melds, kind)
            total_live += unseen[kind]
            paid += unseen[kind] * value
        if not total_live:
            return 0.0
        p = chance_to_complete(0, total_live, self.unseen_total, draws, self.hazard)
        return p * paid / total_live

    def _win_points(
        self, seen: Seen, hand: tuple[int, ...], melds: tuple[Meld, ...], win: int
    ) -> float:
        ting = seen.ting or ("ready" if seen.ruleset.bao_ting else False)
        return (
            _score_points(
                seen.ruleset,
                hand,
                melds,
                win,
                True,
                seen.dealer,
                seen.round_wind,
                seen.flowers,
                ting,
                seen.guo,
                seen.wild,
            )
            + _score_points(
                seen.ruleset,
                hand,
                melds,
                win,
                False,
                seen.dealer,
                seen.round_wind,
                seen.flowers,
                ting,
                seen.guo,
                seen.wild,
            )
        ) / 2

    def _base_fan(
        self, seen: Seen, counts: Sequence[int], melds: tuple[Meld, ...], concealed: bool
    ) -> float:
        pay = self.payer
        fan: float = len(seen.flowers) * pay.fan("hua_pai")
        if concealed:
            fan += pay.fan("men_qing", "men_qian_qing")
            if seen.ruleset.bao_ting:
                fan += pay.fan("men_qing_bao_ting", "bao_ting")
        elif seen.ruleset.bao_ting:
            fan += pay.fan("bao_ting")
        dragon = pay.fan("jian_ke")
        if dragon:
            for kind in DRAGONS:
                held = counts[kind] + sum(3 for m in melds if m.tiles[0] == kind)
                if held >= 3:
                    fan += dragon
                elif held == 2 and seen.unseen[kind]:
                    fan += dragon * 0.3
        return fan

    def _targets(
        self, seen: Seen, counts: Sequence[int], melds: tuple[Meld, ...], sets_needed: int
    ) -> Iterator[tuple[float, int]]:
        """(fan of the target, shanten towards it) for flush x shape targets."""
        pay = self.payer
        counts, wilds = self.analyst.plain(counts)  # a 财神 fits every target
        unseen, _ = self.analyst.plain(seen.unseen)
        suits = [
            s
            for s in range(3)
            if any(counts[9 * s : 9 * s + 9])
            or any(m.tiles[0] // 9 == s and m.tiles[0] < 27 for m in melds)
        ]
        number_suits = [s for s in range(3) if 9 * s in seen.ruleset.kinds]
        main = (
            max(
                suits,
                key=lambda s: (
                    sum(counts[9 * s : 9 * s + 9])
                    + 3 * sum(1 for m in melds if m.tiles[0] // 9 == s)
                ),
            )
            if suits
            else None
        )
        filters: list[tuple[str, int | None, float]] = [("plain", None, 0.0)]
        if main is not None:
            hun = pay.fan("hun_yi_se")
            qing = pay.fan("qing_yi_se")
            filters.append(("hun", main, hun))
            filters.append(("qing", main, qing))
        pung_fan = pay.fan("peng_peng_hu")
        pairs_fan = pay.fan("qi_dui_zi", "qi_dui")
        one_suit_set = len(number_suits) == 1
        has_honors = any(counts[27:34]) or any(m.tiles[0] >= 27 for m in melds)
        for name, suit, fan in filters:
            if name == "plain":
                if one_suit_set:
                    continue  # the 72-tile sets: every hand is a flush of some kind
                kept = counts
            else:
                assert suit is not None  # the flush filters have their suit
                if any(not _fits(m.tiles[0], suit, name) for m in melds):
                    continue
                kept = [c if _fits(k, suit, name) else 0 for k, c in enumerate(counts)]
                if name == "hun" and not has_honors:
                    fan = 0.0  # it would be read as a full flush (its own target)
            yield fan, _less(standard_shanten(kept, sets_needed), wilds)
            if pung_fan and all(m.type != "chi" for m in melds):
                yield fan + pung_fan, _less(pungs_shanten(kept, sets_needed, unseen), wilds)
            if pairs_fan and not melds and "seven_pairs" in seen.ruleset.forms:
                yield fan + pairs_fan, seven_pairs_shanten(kept)

    # ----- defence ------------------------------------------------------------------
    def danger(self, seen: Seen, kind: int, passed: frozenset[int] = frozenset()) -> float:
        """Chance-like weight that discarding ``kind`` deals in; ``passed``: my discards
        the ready opponent already let go (``Seen.passed_since_ready``)."""
        if seen.opp_ting and (kind in seen.opp_river or kind in passed):
            return 0.05
        if kind in seen.opp_river:
            base = 0.4
        elif kind >= 27:
            left = seen.unseen[kind]
            base = (0.0, 0.3, 0.6, 0.7, 0.7)[left]
        elif kind % 9 in (0, 8):
            base = 0.6
        elif kind % 9 in (1, 7):
            base = 0.8
        else:
            base = 1.0
        opp_suits = {m.tiles[0] // 9 for m in seen.opp_melds if m.tiles[0] < 27}
        one_suit = len(seen.opp_melds) >= 2 and len(opp_suits) == 1
        if kind < 27 and one_suit and kind // 9 not in opp_suits:
            base *= 0.4
        return base

    def _penalty(self, seen: Seen, kind: int) -> float:
        if not self.threat:
            return 0.0
        return self.threat * DEAL_IN * self.danger(seen, kind, self.passed) * self.opp_value

    # ----- decisions ----------------------------------------------------------------
    def on_turn(self, seen: Seen, actions: list[Action]) -> Action:
        """The fastest discards first (as ``efficient``); among them the most valuable,
        less the danger of dealing in. Against a ready opponent, a hand far from ready
        may also break its shape for a safer tile."""
        counts = counts_of(seen.hand)
        kinds = discard_kinds(actions)
        if not kinds:
            return actions[0]
        table = self.analyst.discard_table(counts, seen.sets_needed, kinds)
        s_min = min(s for s, _, _ in table.values())
        folding = self.threat >= 0.5 and s_min >= FOLD_FROM
        slack = SLACK if folding else 0
        u_max = max(u for s, u, _ in table.values() if s == s_min)
        scored: dict[int, float] = {}
        for kind in kinds:
            s, u, _ = table[kind]
            if s > s_min + slack or (s == s_min and not folding and u < KEEP_PACE * u_max):
                continue
            counts[kind] -= 1
            value = self.hand_value(seen, counts, seen.melds, u, s)
            counts[kind] += 1
            scored[kind] = value - (self._penalty(seen, kind) if self.threat >= 0.5 else 0.0)
        best = max(
            scored,
            key=lambda k: (
                scored[k],
                -table[k][0],
                table[k][1],
                -self.analyst.keep_value(counts, k),
                -k,
            ),
        )
        for kong in (a for a in actions if a.verb in ("ankan", "addkan")):
            if (
                self._kong_shanten(self.analyst, seen, kong) <= table[best][0]
                and self._kong_value(seen, kong) >= scored[best]
            ):
                return kong
        ready = table[best][0] == 0 and table[best][1] > 0
        return _ready_or_discard(actions, best, ready and self._declaring_pays(seen))

    def _declaring_pays(self, seen: Seen) -> bool:
        """报听 locks the hand (no more choice of discards, so no defence): declare only
        where it pays a fan (classic: only a concealed hand) or opens 过胡."""
        rs, pay = seen.ruleset, self.payer
        if rs.guo_hu:
            return True
        if seen.concealed_hand:
            return pay.fan("men_qing_bao_ting", "bao_ting", "tian_ting") > 0
        return pay.fan("bao_ting") > 0

    def _kong_value(self, seen: Seen, kong: Action) -> float:
        counts = counts_of(seen.hand)
        if kong.verb == "ankan":
            counts[kong.tile] -= 4
            melds = seen.melds + (Meld("ankan", (kong.tile,) * 4),)
        else:
            counts[kong.tile] -= 1
            melds = tuple(
                Meld("kan", (kong.tile,) * 4) if m.type == "pon" and m.tiles[0] == kong.tile else m
                for m in seen.melds
            )
        return self.hand_value(seen, counts, melds) * 1.1

    def on_claim(self, seen: Seen, actions: list[Action]) -> Action:
        """Claim when it is faster (as ``efficient``: speed wins two-player races), and
        also when a claim that is not faster clearly adds value (a dragon pung)."""
        counts = counts_of(seen.hand)
        now_shanten = self.analyst.shanten(counts, seen.sets_needed)
        best: Action | None = None
        best_key: tuple[int, int] | None = None
        now: float | None = None
        for claim in (a for a in actions if a.verb in ("kan", "pon", "chi")):
            key = claim_outcome(self.analyst, seen, counts, claim)
            if key[0] >= now_shanten:
                if now is None:
                    now = self.hand_value(seen, counts, seen.melds)
                if not self._claim_value(seen, counts, claim) > 1.3 * now + 0.1:
                    continue
            if best_key is None or key < best_key:
                best, best_key = claim, key
        return best if best is not None else _decline(actions)

    def _claim_value(self, seen: Seen, counts: Sequence[int], claim: Action) -> float:
        after = list(counts)
        tile = claim.tile
        if claim.verb == "kan":
            after[tile] -= 3
            return self.hand_value(seen, after, seen.melds + (Meld("kan", (tile,) * 4),)) * 1.1
        used = (tile, tile) if claim.verb == "pon" else claim.tiles[1:]
        for t in used:
            after[t] -= 1
        meld = Meld(claim.verb, tuple(sorted((tile, *used))))
        melds = seen.melds + (meld,)
        kinds = [k for k in range(34) if after[k] and k != seen.wild]
        table = self.analyst.discard_table(after, seen.sets_needed - 1, kinds)
        s_min = min(s for s, _, _ in table.values())
        best = 0.0
        for kind in kinds:
            s, u, _ = table[kind]
            if s > s_min:
                continue
            after[kind] -= 1
            best = max(best, self.hand_value(seen, after, melds, u, s) - self._penalty(seen, kind))
            after[kind] += 1
        return best

    def on_win(self, seen: Seen, actions: list[Action]) -> Action:
        """Take the win unless waiting is worth more: a 过胡 doubles the next win
        (quesheng); passing a discard win can pay when a self-draw pays more (classic's
        x3). Waiting is valued turn by turn against the opponent's pace."""
        decline = next((a for a in actions if a.verb in ("guo", "pass")), None)
        if decline is None:
            return HU
        hand, win, tsumo = self._win_parts(seen)
        if hand is None:
            return HU
        assert win is not None and tsumo is not None  # found with the hand
        ting = seen.ting or False
        now = _score_points(
            seen.ruleset,
            hand,
            seen.melds,
            win,
            tsumo,
            seen.dealer,
            seen.round_wind,
            seen.flowers,
            ting,
            seen.guo,
            seen.wild,
        )
        if now <= 0:
            return HU
        doubling = decline.verb == "guo"
        rs = seen.ruleset
        if not doubling and (tsumo or rs.self_draw_multiplier <= rs.discard_multiplier):
            return HU  # passing can only lose: the next win pays the same or less
        later = self._waiting_value(seen, hand, ting, doubling)
        return decline if later > now else HU

    def _win_parts(self, seen: Seen) -> tuple[tuple[int, ...], int, bool] | tuple[None, None, None]:
        if seen.phase == TURN and seen.drawn is not None:
            hand = list(seen.hand)
            hand.remove(seen.drawn)
            return tuple(hand), seen.drawn, True
        if seen.phase == CLAIM and seen.claim_tile is not None:
            return seen.hand, seen.claim_tile, False
        if seen.claim_tile is not None:  # robbing a kong
            return seen.hand, seen.claim_tile, False
        return None, None, None

    def _waiting_value(
        self, seen: Seen, hand: tuple[int, ...], ting: str | bool, doubling: bool
    ) -> float:
        """Expected points of declining now and winning later with the same ready hand:
        each round, my draw may complete it, then the opponent may win (paying them),
        then their discard may complete it."""
        counts = counts_of(hand)
        sets_needed = seen.sets_needed
        waits: list[int] = []
        for kind in range(34):
            if not seen.unseen[kind] or counts[kind] >= 4:
                continue
            counts[kind] += 1
            if self.analyst.shanten(counts, sets_needed) < 0:
                waits.append(kind)
            counts[kind] -= 1
        live = sum(seen.unseen[k] for k in waits)
        rounds = seen.live // 2
        if not live or rounds <= 0:
            return 0.0
        guo = seen.guo + (1 if doubling else 0)
        rs = seen.ruleset

        def paid(kind: int, tsumo: bool) -> float:
            return seen.unseen[kind] * _score_points(
                rs,
                hand,
                seen.melds,
                kind,
                tsumo,
                seen.dealer,
                seen.round_wind,
                seen.flowers,
                ting,
                guo,
                seen.wild,
            )

        by_tsumo = sum(paid(k, True) for k in waits) / live
        by_ron = sum(paid(k, False) for k in waits) / live
        p = min(0.9, live / self.unseen_total)
        p_ron = p if seen.opp_ting else 0.6 * p  # an unlocked opponent keeps useful tiles
        h = _opponent_turn_win(seen, self.unseen_total)
        alive, value = 1.0, 0.0
        for _ in range(rounds):
            value += alive * p * by_tsumo
            alive *= 1 - p
            value -= alive * h * self.opp_value
            alive *= 1 - h
            value += alive * p_ron * by_ron
            alive *= 1 - p_ron
        return value


def _less(shanten: int, wilds: int) -> int:
    """A target's shanten with ``wilds`` 财神 standing in (each fills one gap) for a
    3n+1 hand, which is at best ready."""
    return shanten if shanten >= NO_HAND else max(0, shanten - wilds)


def _fits(kind: int, suit: int, name: str) -> bool:
    if kind >= 27:
        return name == "hun"
    return kind // 9 == suit


def _threat(seen: Seen) -> float:
    if seen.opp_ting:
        return 1.0
    exposed = len(seen.opp_melds) + seen.opp_hidden_kongs
    late = 0.3 if seen.live < 12 else (0.15 if seen.live < 24 else 0.0)
    return min(0.8, 0.15 * exposed + late)


def _opponent_turn_win(seen: Seen, unseen_total: int) -> float:
    """Chance the opponent wins on a turn of theirs (a rough reading of their pace)."""
    if seen.opp_ting:
        return min(0.6, 1 - (1 - 6 / unseen_total) ** 2)
    return OPPONENT_PACE + 0.02 * len(seen.opp_melds)


@lru_cache(maxsize=100_000)
def _score_cached(
    holder: _Holder,
    hand: tuple[int, ...],
    melds: tuple[Meld, ...],
    win: int,
    tsumo: bool,
    dealer: bool,
    round_wind: int,
    flowers: tuple[int, ...],
    ting: str | bool,
    guo: int,
    wild: int | None,
) -> float:
    rs = holder[0]
    ctx = WinContext(
        hand=hand,
        melds=melds,
        win=win,
        tsumo=tsumo,
        seat_wind=27 if dealer else 29,
        round_wind=round_wind,
        flowers=flowers,
        dealer=dealer,
        ting=ting,
        passes=guo,
        wild=wild,
    )
    try:
        result = score_win(rs, ctx)
    except Exception:  # an impossible reading (copies) is simply not a win
        return 0.0
    if not result.is_win or not result.legal:
        return 0.0
    outcome = Outcome(SELF_DRAW if tsumo else DISCARD_WIN, winner=0, loser=1)
    return float(settle(rs, outcome, result, Table(base=1)).delta(0))


def _score_points(
    rs: Ruleset,
    hand: Iterable[int],
    melds: Iterable[Meld],
    win: int,
    tsumo: bool,
    dealer: bool,
    round_wind: int,
    flowers: Iterable[int],
    ting: str | bool,
    guo: int,
    wild: int | None,
) -> float:
    return _score_cached(
        _Holder(rs),
        tuple(sorted(hand)),
        tuple(melds),
        win,
        tsumo,
        dealer,
        round_wind,
        tuple(flowers),
        ting,
        guo,
        wild,
    )
