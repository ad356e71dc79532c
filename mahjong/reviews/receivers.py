"""The reviews' part in a recorded hand (mahjong.tables.hooks), connected at start-up by
ReviewsConfig.ready: the review is queued once the hand's end has committed, never inside
the settlement's transaction (its CPU is the worker's, not the move's)."""

from django.db import transaction
from django.dispatch import receiver

from accounts.signals import profile_shown
from mahjong.tables import hooks

from . import puzzles, services
from .tasks import review_hand


@receiver(hooks.hand_recorded, dispatch_uid="reviews.review_recorded_hand")
def review_recorded_hand(sender, locked, result, **kwargs) -> None:
    hand_id = locked.hand.pk
    transaction.on_commit(lambda: review_hand.delay(hand_id))


@receiver(profile_shown, dispatch_uid="reviews.agreement_on_profile")
def agreement_on_profile(sender, user, **kwargs) -> dict:
    """The agreement with the bot over the player's last reviewed hands: those hands are
    public (finished), and so is their trend; and the puzzles solved at the first try."""
    if user.is_bot:
        return {"review_trend": None, "puzzles_solved": None}
    return {"review_trend": services.trend(user), "puzzles_solved": puzzles.solved(user)}
