"""The ratings' part in a settled hand (mahjong.tables.hooks) and on a profile page
(accounts.signals), connected at start-up by RatingsConfig.ready."""

from django.dispatch import receiver

from accounts.signals import profile_shown
from mahjong.tables import hooks

from . import profile, services


@receiver(hooks.hand_recorded, dispatch_uid="ratings.record_ranked_hand")
def record_ranked_hand(sender, locked, result, **kwargs) -> None:
    services.record_ranked_hand(locked, result)  # Glicko-2 and leaderboard rows, once


@receiver(profile_shown, dispatch_uid="ratings.rating_on_profile")
def rating_on_profile(sender, user, **kwargs) -> dict:
    return {"rating": profile.summary(user)}
