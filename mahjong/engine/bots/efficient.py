"""The ``efficient`` bot: tile efficiency and nothing else.

* always takes a win that is offered;
* discards to the lowest shanten, ties broken by the number of tiles that would lower it
  further, counting only copies it cannot see (its hand, both rivers, shown melds);
* claims (chi, pon, kong) only when the claim lowers its shanten;
* declares a concealed or added kong when it costs no shanten;
* declares 报听 as soon as its discard leaves the hand ready.

wenzhou's 财神 (RULES.md 9.2): the bot counts in *plain* counts, where a 财神 is taken out
as a wild and each 白板 plays as the wild's kind. A wild lowers the standard-form shanten
by one (it completes a partial or pairs a single), and holding wilds also approaches
三财神 (three wilds win at once), so shanten is the smaller of the two. Wilds are never
offered as discards (the engine refuses them), so the bot never throws one away.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..actions import Action
from ..rulesets import Ruleset
from ..state import CLAIM, TURN
from ..tiles import NEAR_KINDS, WHITE
from .seen import Seen, read_view
from .shanten import (
    seven_pairs_of,
    seven_pairs_shanten,
    standard_after_draws,
    standard_shanten,
)

HU = Action("hu")
_CLAIMS = ("kan", "pon", "chi")


def shanten_of(counts: Sequence[int], sets_needed: int, seven_pairs: bool) -> int:
    s = standard_shanten(counts, sets_needed)
    if seven_pairs and sets_needed == 4 and s > -1:
        s = min(s, seven_pairs_shanten(counts))
    return s


class Analyst:
    """Shanten and improving tiles of the hands one decision considers (3n+1 counts).

    Counts are by the tiles' faces (what the view shows); with a wenzhou 财神 they are
    read through ``plain`` before the block count."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        self.seven_pairs = "seven_pairs" in seen.ruleset.forms
        self.wild = seen.wild
        self.kinds = tuple(k for k in range(34) if seen.unseen[k] or k in seen.hand)
        self._memo: dict[Any, Any] = {}

    def plain(self, counts: Sequence[int]) -> tuple[Sequence[int], int]:
        """(counts with the wilds taken out and each 白板 as the wild's kind, wilds)."""
        wild = self.wild
        if wild is None:
            return counts, 0
        plain = list(counts)
        wilds = plain[wild]
        plain[wild] = 0
        if wild != WHITE:
            plain[wild] = plain[WHITE]
            plain[WHITE] = 0
        return plain, wilds

    def with_wilds(self, shanten: int, wilds: int, tiles: int) -> int:
        """A block-count shanten of the plain tiles, given ``wilds`` wild tiles held, or
        the distance to 三财神 (all three wilds) while enough of them are unseen."""
        best = 0 if tiles % 3 == 1 else -1
        assert self.wild is not None  # asked only with a wild
        san_cai_shen = 2 - wilds if self.seen.unseen[self.wild] >= 3 - wilds else shanten
        return max(best, min(shanten - wilds, san_cai_shen))

    def shanten(self, counts: Sequence[int], sets_needed: int) -> int:
        if self.wild is None:
            return shanten_of(counts, sets_needed, self.seven_pairs and sets_needed == 4)
        plain, wilds = self.plain(counts)
        return self.with_wilds(standard_shanten(plain, sets_needed), wilds, sum(counts))

    def improving(
        self, counts: list[int], sets_needed: int, base: int | None = None
    ) -> tuple[int, dict[int, int]]:
        """(unseen copies of the kinds that lower the shanten, {kind: copies})."""
        if base is None:
            base = self.shanten(counts, sets_needed)
        unseen = self.seen.unseen
        kinds = [k for k in self._candidates(counts) if unseen[k] and counts[k] < 4]
        after = self.after_draws(counts, sets_needed, kinds)
        found = {k: unseen[k] for k, s in zip(kinds, after) if s < base}
        return sum(found.values()), found

    def after_draws(self, counts: list[int], sets_needed: int, kinds: list[int]) -> list[int]:
        """``shanten`` of ``counts`` with each of ``kinds`` drawn."""
        if self.wild is not None:
            return self._after_draws_with_wilds(counts, sets_needed, kinds)
        after = standard_after_draws(counts, sets_needed, kinds)
        if not (self.seven_pairs and sets_needed == 4):
            return after
        # as shanten_of: a draw of a new kind adds a kind, of a single adds a pair
        held = bytes(counts)
        kinds_held = len(held) - held.count(0)
        pairs = kinds_held - held.count(1)
        out = []
        for kind, s in zip(kinds, after):
            if s > -1:
                drawn = seven_pairs_of(kinds_held + (held[kind] == 0), pairs + (held[kind] == 1))
                s = min(s, drawn)
            out.append(s)
        return out

    def _after_draws_with_wilds(
        self, counts: list[int], sets_needed: int, kinds: list[int]
    ) -> list[int]:
        """As ``shanten`` reads a hand with wilds: a drawn wild adds a wild to the plain
        tiles, a drawn 白板 a copy of the wild's kind, any other draw its own kind."""
        wild = self.wild
        assert wild is not None
        plain, wilds = self.plain(counts)
        tiles = sum(counts) + 1
        plays = [wild if k == WHITE else k for k in kinds if k != wild]
        plain_after = iter(standard_after_draws(plain, sets_needed, plays))
        with_wild = standard_shanten(plain, sets_needed) if wild in kinds else 0
        return [
            self.with_wilds(with_wild, wilds + 1, tiles)
            if k == wild
            else self.with_wilds(next(plain_after), wilds, tiles)
            for k in kinds
        ]

    def _candidates(self, counts: Sequence[int]) -> list[int]:
        plain, _ = self.plain(counts)
        near: set[int] = set()
        for kind, held in enumerate(plain):
            if held:
                near.update(NEAR_KINDS[kind])
        if self.wild is not None:
            if self.wild in near and self.wild != WHITE:
                near.add(WHITE)  # a 白板 is the plain copy of the wild's kind
            near.add(self.wild)  # a drawn 财神 always helps
        return sorted(near)

    def keep_value(self, counts: Sequence[int], kind: int) -> int:
        plain, _ = self.plain(counts)
        face = self.wild if kind == WHITE and self.wild is not None else kind
        return keep_value(plain, face)

    def discard_table(
        self, counts: list[int], sets_needed: int, kinds: Iterable[int]
    ) -> dict[int, tuple[int, int, dict[int, int]]]:
        """For each kind that may be discarded: (shanten after, improving copies, waits)."""
        out: dict[int, tuple[int, int, dict[int, int]]] = {}
        for kind in kinds:
            counts[kind] -= 1
            s = self.shanten(counts, sets_needed)
            u, found = self.improving(counts, sets_needed, s)
            out[kind] = (s, u, found)
            counts[kind] += 1
        return out


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def keep_value(counts: Sequence[int], kind: int) -> int:
    """How much a tile holds the hand together: neighbours and copies (tie-breaker)."""
    value = 2 * (counts[kind] - 1)
    if kind < 27:
        low = kind - kind % 9
        for other in range(max(low, kind - 2), min(low + 8, kind + 2) + 1):
            if other != kind and counts[other]:
                value += 2 if abs(other - kind) == 1 else 1
        value += 1 if 0 < kind % 9 < 8 else 0
    return value


def discard_kinds(actions: Iterable[Action]) -> list[int]:
    return sorted({a.tile for a in actions if a.verb in ("discard", "ting")})


class EfficientBot:
    level = "efficient"

    def __init__(self, seed: bytes | str | int = 0, ruleset: Ruleset | None = None) -> None:
        self.seed = seed
        self.ruleset = ruleset

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        seen = read_view(view, self.ruleset)
        return self.decide(seen, actions)

    # ----- the decision -----------------------------------------------------------
    def decide(self, seen: Seen, actions: list[Action]) -> Action:
        if HU in actions:
            return self.on_win(seen, actions)
        if seen.phase == TURN:
            return self.on_turn(seen, actions)
        if seen.phase == CLAIM:
            return self.on_claim(seen, actions)
        return _decline(actions)

    def on_win(self, seen: Seen, actions: list[Action]) -> Action:
        return HU

    def on_turn(self, seen: Seen, actions: list[Action]) -> Action:
        analyst = Analyst(seen)
        counts = counts_of(seen.hand)
        kinds = discard_kinds(actions)
        if not kinds:
            return actions[0]
        table = analyst.discard_table(counts, seen.sets_needed, kinds)
        best = min(
            kinds, key=lambda k: (table[k][0], -table[k][1], analyst.keep_value(counts, k), k)
        )
        s_best = table[best][0]
        for kong in (a for a in actions if a.verb in ("ankan", "addkan")):
            if self._kong_shanten(analyst, seen, kong) <= s_best:
                return kong
        return _ready_or_discard(actions, best, s_best == 0 and table[best][1] > 0)

    def _kong_shanten(self, analyst: Analyst, seen: Seen, kong: Action) -> int:
        counts = counts_of(seen.hand)
        if kong.verb == "ankan":
            counts[kong.tile] -= 4
            return analyst.shanten(counts, seen.sets_needed - 1)
        counts[kong.tile] -= 1
        return analyst.shanten(counts, seen.sets_needed)

    def on_claim(self, seen: Seen, actions: list[Action]) -> Action:
        analyst = Analyst(seen)
        counts = counts_of(seen.hand)
        now = analyst.shanten(counts, seen.sets_needed)
        best: Action | None = None
        best_key: tuple[int, int] | None = None
        for claim in (a for a in actions if a.verb in _CLAIMS):
            key = claim_outcome(analyst, seen, counts, claim)
            if key[0] < now and (best_key is None or key < best_key):
                best, best_key = claim, key
        return best if best is not None else _decline(actions)


def claim_outcome(
    analyst: Analyst, seen: Seen, counts: Sequence[int], claim: Action
) -> tuple[int, int]:
    """(shanten, -improving copies) of the hand after the claim and its best discard."""
    after = list(counts)
    if claim.verb == "kan":
        after[claim.tile] -= 3
        return analyst.shanten(after, seen.sets_needed - 1), 0
    used = (claim.tile, claim.tile) if claim.verb == "pon" else claim.tiles[1:]
    for t in used:
        after[t] -= 1
    kinds = [k for k in range(34) if after[k] and k != seen.wild]
    if not kinds:
        return 99, 0
    table = analyst.discard_table(after, seen.sets_needed - 1, kinds)
    return min((s, -u) for s, u, _ in table.values())


def _ready_or_discard(actions: Sequence[Action], kind: int, ready: bool) -> Action:
    ting = Action("ting", (kind,))
    if ready and ting in actions:
        return ting
    discard = Action("discard", (kind,))
    return discard if discard in actions else ting


def _decline(actions: Sequence[Action]) -> Action:
    for a in actions:
        if a.verb in ("pass", "guo"):
            return a
    return actions[-1]
