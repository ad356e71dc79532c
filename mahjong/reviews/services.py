"""Reviewing a finished hand once, and reading the reviews back.

``review(hand_id)`` is the task's body: it reviews the human seats of an ended hand that
have no review yet, in one replay of the hand's record (the engine's ``review_seats``),
and stores each seat's ``HandReview.to_dict()``, and the puzzles its decisions make
(``puzzles.create``). A second run finds the rows and writes
nothing; a record that does not replay (a seed that is not the commitment's, a logged
move the engine refuses) is logged and skipped: a review is a nice-to-have, and a worker
must not fail over one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet

from mahjong.engine.errors import EngineError
from mahjong.engine.game import revealed_start
from mahjong.engine.review import HandReview, review_seats
from mahjong.engine.state import GameState
from mahjong.tables.models import Hand, Seat

from . import puzzles
from .models import Review

log = logging.getLogger(__name__)

TREND = 50  # the profile's trend: the player's last reviewed hands
SPARK_WIDTH = 300


def ended(hand_id: int) -> Hand | None:
    """The hand if it has ended (its seed revealed): only such a hand is ever reviewed."""
    return (
        Hand.objects.select_related("table")
        .filter(pk=hand_id, ended_at__isnull=False)
        .exclude(seed="")
        .first()
    )


def review(hand_id: int) -> int:
    """Reviews the human seats of an ended hand not reviewed yet; how many it stored."""
    hand = ended(hand_id)
    if hand is None:
        return 0
    done = set(Review.objects.filter(hand=hand).values_list("seat", flat=True))
    players = {
        s.index: s.user_id
        for s in hand.table.seats.select_related("user")
        if not s.is_bot and s.index not in done
    }
    if not players:
        return 0
    states: dict[int, GameState] = {}  # the puzzles' positions, from the same replay
    try:
        start = revealed_start(hand.state, hand.seed, hand.commitment)
        found = review_seats(start, hand.moves(), sorted(players), states=states)
    except (EngineError, ValueError, KeyError, TypeError) as exc:
        log.warning("hand %s: no review, its record does not replay (%s)", hand.pk, exc)
        return 0
    rows = [_row(hand, seat, player, found[seat]) for seat, player in players.items()]
    stored = len(Review.objects.bulk_create(rows, ignore_conflicts=True))
    puzzles.create(hand, [found[seat] for seat in players], states)
    return stored


def backfill_puzzles(limit: int) -> tuple[int, int]:
    """The puzzles of up to ``limit`` reviewed hands, newest first (puzzles.create is
    idempotent: a hand's puzzles are stored once); (hands looked at, puzzles stored)."""
    hands = Hand.objects.filter(pk__in=Review.objects.values("hand")).order_by("-ended_at", "-pk")
    looked = made = 0
    for hand in hands.select_related("table")[:limit]:
        looked += 1
        try:
            made += puzzles.create(hand, [r.engine_review() for r in hand.reviews.all()])
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            log.warning("hand %s: no puzzles, its record does not replay (%s)", hand.pk, exc)
    return looked, made


def unreviewed(limit: int) -> list[int]:
    """The ids of up to ``limit`` ended hands, newest first, with a human seat that has no
    review (a hand that does not replay stays here: review() skips it again)."""
    reviewed = Review.objects.filter(hand=OuterRef(OuterRef("pk")), seat=OuterRef("index"))
    waiting = Seat.objects.filter(table=OuterRef("table"), user__kind="player").exclude(
        Exists(reviewed)
    )
    hands = (
        # not ~Q(called_off=True): SQL's NOT would drop the hands ended before the flag
        Hand.objects.filter(ended_at__isnull=False)
        .filter(Q(result__called_off=False) | Q(result__called_off__isnull=True))
        .exclude(seed="")
        .filter(Exists(waiting))
        .order_by("-ended_at", "-pk")
    )
    return list(hands.values_list("pk", flat=True)[:limit])


def _row(hand: Hand, seat: int, player: int, found: HandReview) -> Review:
    return Review(
        hand=hand,
        seat=seat,
        player_id=player,
        choices=found.choices,
        agreed=found.agreed,
        mistakes=found.mistakes,
        tiles_given_up=found.tiles_given_up,
        data=found.to_dict(),
    )


def of_hand(hand: Hand, seats: tuple[int, ...]) -> dict[int, HandReview]:
    """The stored reviews of ``seats`` of an ended hand (none of a hand in play)."""
    if hand.ended_at is None or not seats:
        return {}
    rows = Review.objects.filter(hand=hand, seat__in=seats, hand__ended_at__isnull=False)
    return {r.seat: r.engine_review() for r in rows}


def recent(player) -> QuerySet:
    """The player's last ``TREND`` reviewed hands with a choice in them, newest first."""
    return (
        Review.objects.filter(player=player, choices__gt=0, hand__ended_at__isnull=False)
        .order_by("-hand__ended_at", "-pk")
        .only("agreed", "choices", "hand__ended_at")[:TREND]
    )


@dataclass(frozen=True)
class Trend:
    rates: list[int]  # per hand, oldest first: agreed / choices in percent
    agreed: int
    choices: int

    @property
    def overall(self) -> int:
        return round(100 * self.agreed / self.choices) if self.choices else 0

    @property
    def hands(self) -> int:
        return len(self.rates)

    @property
    def line(self) -> str:
        """The rates as a sparkline's ``<polyline points>`` in a SPARK_WIDTH x 100 box
        (0% at the bottom): the template draws it, no script."""
        step = SPARK_WIDTH / max(len(self.rates) - 1, 1)
        return " ".join(f"{round(i * step, 1)},{100 - r}" for i, r in enumerate(self.rates))


def trend(player) -> Trend | None:
    """The agreement with the bot over the player's last reviewed hands; None without."""
    rows = list(recent(player).values_list("agreed", "choices"))
    if not rows:
        return None
    rows.reverse()
    return Trend(
        rates=[round(100 * a / c) for a, c in rows],
        agreed=sum(a for a, _ in rows),
        choices=sum(c for _, c in rows),
    )
