"""What a hand's page and its replay show of the engine's review (mahjong.reviews).

Who sees a review is who sees the hand (lobby.history.finished_hand): a hand is shown
once it has ended, to anyone (the history and the replay are public, shareable links),
and so are both seats' reviews; a hand in play shows none, not even to its players.
Bots' seats are not reviewed.
"""

from __future__ import annotations

from mahjong.engine.review import DecisionReview, HandReview
from mahjong.reviews import services
from mahjong.tables.models import Hand
from mahjong.tables.presenters import tiles_of

from .replays import move_shown


def seats_shown(hand: Hand) -> tuple[int, ...]:
    """The seats whose reviews the hand's pages show: both once the hand has ended and
    its seed is out (the rule that makes the hand's record public), none before."""
    return (0, 1) if hand.ended_at is not None and hand.seed else ()


def of_hand(hand: Hand, names: list[str]) -> list[dict]:
    """Each shown seat's review, in seat order: the hand's line and its decisions."""
    found = services.of_hand(hand, seats_shown(hand))
    return [_seat(found[seat], names[seat]) for seat in sorted(found)]


def at_step(reviews: list[dict], step: int) -> dict[int, dict]:
    """The decision each reviewed seat made at the replay's ``step``, by seat."""
    return {r["seat"]: d for r in reviews for d in r["decisions"] if d["step"] == step}


def _seat(review: HandReview, name: str) -> dict:
    return {
        "seat": review.seat,
        "name": name,
        "choices": review.choices,
        "agreed": review.agreed,
        "rate": round(100 * review.agreed / review.choices) if review.choices else None,
        "mistakes": review.mistakes,
        "tiles_given_up": review.tiles_given_up,
        "biggest": review.biggest_mistake,
        # a forced move (one option) is no decision to learn from
        "decisions": [_decision(d) for d in review.decisions if not d.forced],
    }


def _decision(d: DecisionReview) -> dict:
    return {
        "step": d.step,
        "chosen": move_shown(d.chosen),
        "bot": move_shown(d.bot),
        "agrees": d.agrees,
        "lost": d.lost,
        "tiles_lost": d.tiles_lost,
        "shanten_lost": d.shanten_lost,
        # the stage's offers are not measured (every 3 tiles of a swap is one): their
        # choice and the bot's are shown, not a list of numberless options
        "options": [
            {
                **move_shown(o.action),
                "shanten": o.shanten,
                "acceptance": o.acceptance,
                "improving": tiles_of(o.tiles),
                "chosen": o.action == d.chosen,
                "bot": o.action == d.bot,
                "best": o.action in d.best,
            }
            for o in d.options
            if o.shanten is not None
        ],
    }
