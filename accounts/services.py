"""Account changes other than beans: registration, bans, mutes and leaderboard freezes."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from . import wallet
from .models import User
from .signals import player_banned


def register(*, username: str, password: str, nickname: str = "") -> User:
    """A new player with the sign-up grant, both or neither."""
    with transaction.atomic():
        user = User(username=username, nickname=nickname.strip(), kind=User.Kind.PLAYER)
        user.set_password(password)
        user.save()
        wallet.grant_signup(user)
    return user


def ban(user: User, reason: str) -> None:
    # is_active=False: ModelBackend refuses the login and drops existing sessions; an
    # open table socket authenticated before the ban is closed by the signal's receivers.
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(is_active=False, ban_reason=reason.strip())
        transaction.on_commit(lambda: player_banned.send(sender=User, user_id=user.pk))


def unban(user: User) -> None:
    User.objects.filter(pk=user.pk).update(is_active=True, ban_reason="")


def mute(user: User, hours: int) -> None:
    until = timezone.now() + datetime.timedelta(hours=hours)
    User.objects.filter(pk=user.pk).update(muted_until=until)


def unmute(user: User) -> None:
    User.objects.filter(pk=user.pk).update(muted_until=None)


def freeze_leaderboards(user: User, actor: User | None) -> bool:
    """Keep ``user`` off every leaderboard (lobby.leaderboards), recording who did it and
    when; the account plays on as before. False if it was frozen already (the first
    freeze's operator and time stay)."""
    frozen = User.objects.filter(pk=user.pk, leaderboard_frozen_at__isnull=True).update(
        leaderboard_frozen_at=timezone.now(), leaderboard_frozen_by=actor
    )
    return bool(frozen)


def unfreeze_leaderboards(user: User) -> bool:
    """Let ``user`` back on the leaderboards. False if they were not frozen."""
    thawed = User.objects.filter(pk=user.pk, leaderboard_frozen_at__isnull=False).update(
        leaderboard_frozen_at=None, leaderboard_frozen_by=None
    )
    return bool(thawed)
