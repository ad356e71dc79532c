"""The wall: a deterministic shuffle from a seed, the fairness commitment, and the deal.

The shuffle must be rebuildable by anyone from the seed alone, on any Python version,
so it does not use ``random`` (whose algorithms may change). Instead SHA-256 in
counter mode produces a byte stream that drives a Fisher-Yates shuffle with rejection
sampling (no modulo bias). Production seeds come from ``secrets.token_bytes(32)``.

The players take part (issue 30): each browser may contribute 32 random bytes, fixed
before the wall is known, and the wall is shuffled from ``wall_seed(server seed,
contributions)``; the commitment stays that of the server's seed, published before any
contribution is accepted, so neither the server nor one player can choose the wall.

Wall order: index 0 is the **front** (normal draws), the last index the **back**
(replacement draws, the wenzhou 财神 indicator) -- RULES.md 3.1.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from .errors import EngineError
from .rulesets import Ruleset
from .tiles import format_tiles, is_flower

SEED_BYTES = 32
CONTRIBUTION_BYTES = 32
NO_CONTRIBUTIONS = ("", "")  # seat 0's, seat 1's: "" where a seat contributed nothing


def new_seed() -> bytes:
    """A fresh production seed from the OS's cryptographic RNG."""
    return secrets.token_bytes(SEED_BYTES)


def seed_bytes(seed: bytes | str | int) -> bytes:
    """Accept a seed as bytes, a hex string, or (tests, the CLI) a small int or any text."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed.to_bytes(max(1, (seed.bit_length() + 8) // 8), "big", signed=True)
    if isinstance(seed, str):
        try:
            return bytes.fromhex(seed)
        except ValueError:
            return seed.encode("utf-8")
    raise EngineError(f"a seed must be bytes, hex text or an int, got {seed!r}")


def derive_salt(seed: bytes) -> bytes:
    """The salt published with the seed at the end of the hand. Derived, so a hand is
    reproducible from its seed alone; the commitment still hides the seed because the
    seed itself is secret and 32 random bytes."""
    return hashlib.sha256(b"mahjong-salt|" + seed).digest()[:16]


def commitment(seed: bytes, salt: bytes) -> str:
    """``sha256(seed || salt)`` in hex: shown when the hand starts (RULES.md 3.1, issue 2)."""
    return hashlib.sha256(seed + salt).hexdigest()


def matches_commitment(seed: bytes, salt: bytes, published: str) -> bool:
    """The fairness check: do the revealed seed and salt hash to what was published?
    (Rebuild the wall itself with ``build_wall(ruleset, seed)``.)"""
    return hashlib.sha256(seed + salt).hexdigest() == published.lower()


def contribution(text: str) -> str:
    """A player's contribution as the engine keeps it: 64 lowercase hex digits (32 bytes),
    or "" for none. Anything else is refused, naming the input."""
    if text == "":
        return ""
    value = text.strip().lower() if isinstance(text, str) else ""
    if len(value) == 2 * CONTRIBUTION_BYTES and all(c in "0123456789abcdef" for c in value):
        return value
    raise EngineError(
        f"a contribution is {2 * CONTRIBUTION_BYTES} hex digits or nothing, got {str(text)[:80]!r}"
    )


def wall_seed(server_seed: bytes, contributions: tuple[str, str] = NO_CONTRIBUTIONS) -> bytes:
    """The seed the wall (and every seeded choice of the hand) is drawn from:
    ``sha256("mahjong-wall|" + server seed hex + "|" + seat 0's + "|" + seat 1's)``, each
    contribution in hex and a missing one written as empty. Without any contribution it is
    the server's seed itself, so hands dealt before contributions existed rebuild as they
    were (and a hand with none is the server's alone, as its page says)."""
    if not any(contributions):
        return server_seed
    text = "|".join(("mahjong-wall", server_seed.hex(), *contributions))
    return hashlib.sha256(text.encode("ascii")).digest()


class ByteStream:
    """SHA-256(seed || label || counter) blocks, consumed as unbiased integers."""

    def __init__(self, seed: bytes, label: bytes):
        self._seed = seed
        self._label = label
        self._counter = 0
        self._buffer = b""

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = self._seed + b"|" + self._label + b"|" + self._counter.to_bytes(8, "big")
            self._buffer += hashlib.sha256(block).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling on 32-bit draws."""
        if n <= 1:
            return 0
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            value = int.from_bytes(self._take(4), "big")
            if value < limit:
                return value % n


def shuffled(tiles: tuple[int, ...], seed: bytes, label: bytes = b"wall") -> tuple[int, ...]:
    """Fisher-Yates over ``tiles`` driven by the seed's byte stream."""
    stream = ByteStream(seed, label)
    out = list(tiles)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def random_seat(seed: bytes, label: bytes) -> int:
    """A seat (0 or 1) chosen from the seed: the first dealer, quesheng's every dealer."""
    return ByteStream(seed, label).below(2)


@dataclass(frozen=True)
class Deal:
    """The tiles of a freshly dealt hand, before anyone acts. ``hands`` are in seat order
    (seat 0, seat 1); ``flowers`` were exposed and replaced during the deal; ``unused``
    holds the box tiles that are out of this hand (stage's unchosen 65 minus the
    reserve) so that every tile of the box is always somewhere."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    flowers: tuple[tuple[int, ...], tuple[int, ...]]
    live: tuple[int, ...]
    reserve: tuple[int, ...] = ()
    indicator: int | None = None
    unused: tuple[int, ...] = ()


def build_wall(ruleset: Ruleset, seed: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ordered wall and the box tiles left out of it (stage: 71 chosen of 136)."""
    tiles = shuffled(ruleset.tile_set, seed)
    if ruleset.playing_tiles is None:
        return tiles, ()
    # A shuffle followed by a cut is a uniform random choice of the playing tiles.
    return tiles[: ruleset.playing_tiles], tiles[ruleset.playing_tiles :]


def deal(
    ruleset: Ruleset,
    seed: bytes,
    dealer: int,
    wall: tuple[int, ...] | None = None,
    back: tuple[int, ...] = (),
) -> Deal:
    """Deal per RULES.md 3.2-3.3, 3.1.3 and 9.2.1.

    ``wall``/``back`` replace the shuffled wall (test helper to script a hand): ``wall``
    is its front in draw order, ``back`` its back in replacement order (first = first
    replacement drawn); the rest of the box goes in between.
    """
    if wall is None and not back:
        wall, unused = build_wall(ruleset, seed)
    else:
        wall, unused = _scripted_wall(ruleset, tuple(wall or ()), tuple(back))
    size = ruleset.hand_size
    dealer_hand, wall = wall[: size + 1], wall[size + 1 :]
    other_hand, wall = wall[:size], wall[size:]
    hands = {dealer: list(dealer_hand), 1 - dealer: list(other_hand)}

    reserve: tuple[int, ...] = ()
    if ruleset.haidi_phase:
        if unused:  # stage: from the tiles that are not playing this hand
            reserve, unused = unused[: ruleset.haidi_draws], unused[ruleset.haidi_draws :]
        else:  # classic: the next tiles after the deal are set aside
            reserve, wall = wall[: ruleset.haidi_draws], wall[ruleset.haidi_draws :]

    indicator = None
    if ruleset.wilds:
        indicator, wall = wall[-1], wall[:-1]

    flowers: dict[int, list[int]] = {0: [], 1: []}
    live = list(wall)
    for seat in (dealer, 1 - dealer):
        _replace_dealt_flowers(hands[seat], flowers[seat], live)
    return Deal(
        hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
        flowers=(tuple(flowers[0]), tuple(flowers[1])),
        live=tuple(live),
        reserve=tuple(reserve),
        indicator=indicator,
        unused=tuple(unused),
    )


def _replace_dealt_flowers(hand: list[int], flowers: list[int], live: list[int]) -> None:
    """Expose every flower and draw replacements from the back until none is left."""
    while True:
        found = [t for t in hand if is_flower(t)]
        if not found:
            return
        for tile in found:
            hand.remove(tile)
            flowers.append(tile)
            if live:
                hand.append(live.pop())


def _scripted_wall(
    ruleset: Ruleset, front: tuple[int, ...], back: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Front + the rest of the box (flowers first, so the back stays plain) + back."""
    from collections import Counter

    box = Counter(ruleset.tile_set)
    given = Counter(front) + Counter(back)
    extra = given - box
    if extra:
        raise EngineError(
            f"scripted wall has tiles the {ruleset.slug} box does not hold: "
            f"{format_tiles(sorted(extra.elements()))}"
        )
    rest = sorted((box - given).elements(), key=lambda t: (not is_flower(t), t))
    full = front + tuple(rest) + tuple(reversed(back))
    if ruleset.playing_tiles is None:
        return full, ()
    cut = len(full) - ruleset.playing_tiles
    # stage: the playing tiles are the front and the back; the middle of the box is unused
    playing = full[: len(front) + len(rest) - cut] + tuple(reversed(back))
    return playing, full[len(front) + len(rest) - cut : len(front) + len(rest)]
