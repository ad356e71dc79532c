"""Puzzles (何切, issue 35): "what would you discard?" positions taken from the stored
reviews of finished hands, where one discard is clearly the best.

A decision becomes a puzzle when every option was a discard, there were at least
``MIN_OPTIONS`` of them, and exactly one is best and clearly so: a lower shanten than
every other option, or the same shanten as the runner-up and at least ``MARGIN`` more
accepted tiles. The position is stored as the seat saw it (``view(state, seat)`` at that
step, only the keys in ``SEEN``): its own tiles, both rivers, the melds, flowers, the
wild and the wall's counts; never the opponent's concealed tiles nor the wall.

``create(hand, reviews)`` is idempotent (one puzzle per hand, seat and step); a player's
first answer to a puzzle is the one that counts (``answer``).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from mahjong.engine.game import replay, revealed_start
from mahjong.engine.review import DecisionReview, HandReview, OptionReview
from mahjong.engine.state import GameState
from mahjong.engine.views import view
from mahjong.tables.models import Hand

from .models import Puzzle, PuzzleAttempt

MIN_OPTIONS = 5  # distinct tiles to discard: fewer is no puzzle
MARGIN = 4  # accepted tiles the best must have over a runner-up of the same shanten
DISCARD = "discard "
# What a puzzle keeps of the seat's view: the position, nothing of the hand's record
SEEN = ("ruleset", "viewer", "phase", "dealer", "wall", "indicator", "wild")
SEAT_SEEN = ("seat", "concealed", "drawn", "concealed_count", "melds", "flowers", "river", "ting")


def clear_best(d: DecisionReview) -> OptionReview | None:
    """The decision's one clearly best discard, or None when it makes no puzzle."""
    measured = [o for o in d.options if o.shanten is not None and o.acceptance is not None]
    if (
        d.forced
        or d.kind != "discard"
        or len(d.best) != 1
        or len(measured) != len(d.options)
        or len(d.options) < MIN_OPTIONS
        or not all(o.action.startswith(DISCARD) for o in d.options)
    ):
        return None
    best = next(o for o in d.options if o.action == d.best[0])
    runner = min(
        (o for o in measured if o is not best),
        key=lambda o: (o.shanten, -(o.acceptance or 0)),
    )
    assert best.shanten is not None and runner.shanten is not None
    if best.shanten < runner.shanten:
        return best
    if (
        best.shanten == runner.shanten
        and (best.acceptance or 0) - (runner.acceptance or 0) >= MARGIN
    ):
        return best
    return None


def seen(state_view: dict[str, Any]) -> dict[str, Any]:
    """The part of a seat's view a puzzle stores (the view is already the seat's)."""
    out = {k: state_view[k] for k in SEEN}
    out["round_wind"] = state_view["session"]["round_wind"]
    out["seats"] = [{k: s[k] for k in SEAT_SEEN} for s in state_view["seats"]]
    return out


def create(
    hand: Hand, reviews: Iterable[HandReview], positions: dict[int, GameState] | None = None
) -> int:
    """Stores the puzzles of a reviewed, ended hand; how many were new. ``positions``: the
    states before the decisions by step, if the caller has them (the review's replay);
    otherwise the hand is replayed for them."""
    stored = set(Puzzle.objects.filter(hand=hand).values_list("seat", "step"))
    found = [
        (r, d, best)
        for r in reviews
        for d in r.decisions
        if (r.seat, d.step) not in stored and (best := clear_best(d))
    ]
    if not found:
        return 0
    if positions is None:
        positions = _positions(hand, {d.step for _, d, _ in found})
    rows = [
        Puzzle(
            hand=hand,
            seat=r.seat,
            step=d.step,
            ruleset=r.ruleset,
            position=seen(view(positions[d.step], r.seat)),
            options=[_option(o) for o in d.options],
            answer=best.action,
            chosen=d.chosen,
            bot=d.bot,
        )
        for r, d, best in found
    ]
    Puzzle.objects.bulk_create(rows, ignore_conflicts=True)  # a racing run stored them
    return len(rows)


def _positions(hand: Hand, steps: set[int]) -> dict[int, Any]:
    """The states before each of ``steps`` (the replay's ``?step=``), rebuilt by the engine."""
    state = revealed_start(hand.state, hand.seed, hand.commitment)
    out = {}
    for step, move in enumerate(hand.moves()):
        if step in steps:
            out[step] = state
        if step >= max(steps):
            break
        state, _ = replay(state, [(move[0], move[1])])
    return out


def _option(o: OptionReview) -> dict[str, Any]:
    return {
        "action": o.action,
        "tile": o.action.removeprefix(DISCARD),
        "shanten": o.shanten,
        "acceptance": o.acceptance,
        "tiles": o.tiles,
    }


# ----- answering ------------------------------------------------------------------------


class NotOffered(ValueError):
    """The answer is not one of the puzzle's options."""


def answer(puzzle: Puzzle, user, choice: str) -> tuple[bool, PuzzleAttempt | None]:
    """Whether ``choice`` is the best discard; the user's first attempt is recorded once
    (a later one is not: the first counts) and returned. Anonymous: nothing recorded."""
    if choice not in puzzle.choices():
        raise NotOffered(choice)
    correct = choice == puzzle.answer
    if user is None or not user.is_authenticated:
        return correct, None
    try:
        with transaction.atomic():
            attempt, _created = PuzzleAttempt.objects.get_or_create(
                user=user, puzzle=puzzle, defaults={"choice": choice, "correct": correct}
            )
    except IntegrityError:  # a second request raced the first: the first counts
        attempt = PuzzleAttempt.objects.get(user=user, puzzle=puzzle)
    return correct, attempt


def solved(user) -> int:
    """Puzzles the user answered right the first time."""
    return PuzzleAttempt.objects.filter(user=user, correct=True).count()


def daily(day: datetime.date) -> Puzzle | None:
    """The day's puzzle: one of those stored before the day (all, if none is), picked by a
    hash of the date, so every process shows the same one all day."""
    start = timezone.make_aware(datetime.datetime.combine(day, datetime.time()))
    pool = Puzzle.objects.filter(created_at__lt=start)
    count = pool.count()
    if not count:  # a site's first day of puzzles
        pool = Puzzle.objects.all()
        count = pool.count()
        if not count:
            return None
    index = int.from_bytes(hashlib.sha256(day.isoformat().encode()).digest()[:8], "big")
    return pool.order_by("pk").only("code", "ruleset")[index % count]
