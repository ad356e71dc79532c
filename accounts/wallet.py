"""The only writer of beans: balances and ledger rows change together, here, or not at all.

A posting is a set of legs (account, signed amount) that sums to zero, written in one
transaction: lock the accounts (in primary-key order, so two postings never deadlock),
replay if the idempotency key was already posted, refuse a negative balance, update the
balances and append one ledger row per leg. Grants come from the bank account, rake
goes to the house account, so the sum of all balances is always zero.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import MAX_ADJUSTMENT, EconomySettings, LedgerEntry, User

Reason = LedgerEntry.Reason
ESCAPE_NOTE = "escape"  # the note of a hand's settlement that is an escape's penalty


class WalletError(Exception):
    """A movement the wallet refuses; the message is shown to the user."""


class InsufficientBeans(WalletError):
    pass


class ReliefRefused(WalletError):
    pass


@dataclass(frozen=True)
class Posting:
    key: str
    entries: tuple[LedgerEntry, ...]
    replayed: bool  # True when the key had been posted before: nothing changed now

    def amount_for(self, account: User) -> int:
        return sum(e.amount for e in self.entries if e.account_id == account.pk)


# ----- system accounts -------------------------------------------------------------------

_SYSTEM_USERNAMES = {User.Kind.HOUSE: "__house__", User.Kind.BANK: "__bank__"}


def system_account(kind: str) -> User:
    """The house (rake) or the bank (grants); created on first use, never able to log in."""
    user = User.objects.filter(kind=kind).first()
    if user is None:
        user, created = User.objects.get_or_create(
            username=_SYSTEM_USERNAMES[kind],
            defaults={"kind": kind, "is_active": False, "nickname": User.Kind(kind).label},
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
    return user


def house() -> User:
    return system_account(User.Kind.HOUSE)


def bank() -> User:
    return system_account(User.Kind.BANK)


# ----- the one write path ----------------------------------------------------------------


def post(
    legs: Sequence[tuple[User, int]],
    *,
    reason: str,
    key: str,
    note: str = "",
    ref: str = "",
    actor: User | None = None,
    counterparts: Mapping[int, User] | None = None,
) -> Posting:
    """Apply a balanced set of movements exactly once per key. ``counterparts`` names,
    by an account's primary key, the account on the other side of its leg (a hand's
    opponent), if there is one."""
    if not key or len(key) > 120:
        raise ValueError(f"idempotency key must be 1-120 characters, got {key!r}")
    if sum(amount for _account, amount in legs) != 0:
        raise ValueError(f"legs of posting {key!r} do not sum to zero: {legs!r}")
    if any(amount == 0 for _account, amount in legs) or not legs:
        raise ValueError(f"posting {key!r} has an empty or zero leg")
    ids = [account.pk for account, _amount in legs]
    if len(set(ids)) != len(ids):
        raise ValueError(f"posting {key!r} names an account twice")

    with transaction.atomic():
        locked = {
            u.pk: u for u in User.objects.select_for_update().filter(pk__in=ids).order_by("pk")
        }
        # Checked after the locks: a concurrent post of the same key has committed by now.
        done = tuple(LedgerEntry.objects.filter(idempotency_key=key).order_by("id"))
        if done:
            return Posting(key, done, replayed=True)
        now = timezone.now()
        entries = []
        for account_ref, amount in legs:
            account = locked[account_ref.pk]
            new_balance = account.beans + amount
            if new_balance < 0 and account.kind != User.Kind.BANK:
                raise InsufficientBeans(
                    _("Cannot pay %(amount)s: %(name)s has %(beans)s beans.")
                    % {
                        "name": account.display_name,
                        "beans": f"{account.beans:,}",
                        "amount": f"{-amount:,}",
                    }
                )
            User.objects.filter(pk=account.pk).update(beans=new_balance)
            account.beans = new_balance
            account_ref.beans = new_balance  # keep the caller's instance current
            entries.append(
                LedgerEntry(
                    account=account,
                    amount=amount,
                    balance_after=new_balance,
                    reason=reason,
                    note=note,
                    ref=ref,
                    idempotency_key=key,
                    actor=actor,
                    counterpart=(counterparts or {}).get(account.pk),
                    created_at=now,
                )
            )
        LedgerEntry.objects.bulk_create(entries)
    return Posting(key, tuple(entries), replayed=False)


# ----- named movements -------------------------------------------------------------------


def grant_signup(user: User) -> Posting | None:
    amount = EconomySettings.load().signup_grant
    if amount <= 0:
        return None
    return post(
        [(bank(), -amount), (user, amount)],
        reason=Reason.SIGNUP_GRANT,
        key=f"signup:{user.public_id}",
    )


def relief_status(user: User, *, below: int, today: datetime.date | None = None) -> str | None:
    """None when the player may claim today's relief, else the reason they may not."""
    today = today or timezone.localdate()
    if user.kind != User.Kind.PLAYER:
        return _("Only players receive relief.")
    if user.beans >= below:
        return _("Relief is for players with fewer than %(below)s beans.") % {"below": f"{below:,}"}
    if LedgerEntry.objects.filter(idempotency_key=_relief_key(user, today), account=user).exists():
        return _("You have already received today's relief. Come back tomorrow.")
    return None


def grant_relief(user: User, *, below: int, today: datetime.date | None = None) -> Posting:
    """The once-a-day 救济金; `below` is the cheapest open room's entry minimum."""
    today = today or timezone.localdate()
    amount = EconomySettings.load().relief_amount
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        user.refresh_from_db(fields=["beans"])
        refusal = relief_status(user, below=below, today=today)
        if refusal:
            raise ReliefRefused(refusal)
        if amount <= 0:
            raise ReliefRefused(_("Relief is switched off."))
        return post(
            [(bank(), -amount), (user, amount)],
            reason=Reason.RELIEF_GRANT,
            key=_relief_key(user, today),
        )


def _relief_key(user: User, day: datetime.date) -> str:
    return f"relief:{user.public_id}:{day.isoformat()}"


def adjust(user: User, amount: int, *, note: str, actor: User | None, key: str) -> Posting:
    """An administrator's grant (amount > 0) or deduction (amount < 0), against the bank."""
    if amount == 0:
        raise WalletError(_("The amount must not be zero."))
    if abs(amount) > MAX_ADJUSTMENT:
        raise WalletError(
            _("An adjustment moves at most %(max)s beans.") % {"max": f"{MAX_ADJUSTMENT:,}"}
        )
    if not note.strip():
        raise WalletError(_("Give a reason for the adjustment."))
    if user.kind == User.Kind.BANK:
        # Its counterpart is the bank itself: a posting with one account twice.
        raise WalletError(_("The bank pays every adjustment: it cannot be adjusted itself."))
    reason = Reason.ADMIN_GRANT if amount > 0 else Reason.ADMIN_DEDUCT
    return post(
        [(bank(), -amount), (user, amount)], reason=reason, key=key, note=note.strip(), actor=actor
    )
