"""Pairs of players with one-sided bean flows between them (issue 30.3): a second
account of one person losing or escaping on purpose to feed the first, at the price of
free sign-ups.

Read from the ledger alone: each seat's row of a hand's settlement names the opponent
(its counterpart), so the winners' rows are grouped by the pair of players in one
query. Bots, the house and the bank are never a side of a pair.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import BigIntegerField, Count, F, Q, Sum
from django.db.models.functions import Abs, Coalesce, Greatest, Least
from django.utils import timezone

from .models import LedgerEntry, User
from .wallet import ESCAPE_NOTE

EVIDENCE_SHOWN = 200  # ledger rows on a pair's page, newest first

# The windows the page offers: days back, None for all time.
PERIODS = {"7": 7, "30": 30, "all": None}
DEFAULT_PERIOD = "30"


@dataclass(frozen=True)
class Pair:
    receiver: User  # the account the beans went to
    feeder: User
    hands: int  # settled hands that moved beans between the two, either way
    escapes: int  # of them, the feeder's escapes
    net: int  # beans the receiver won from the feeder, net of what went back
    gross: int  # beans moved between the two, both ways

    @property
    def share(self) -> float:
        """Of the beans moved between the two, the part that went to the receiver."""
        return (self.gross + self.net) / 2 / self.gross


def since(period: str, now: datetime.datetime | None = None) -> datetime.datetime | None:
    days = PERIODS.get(period, PERIODS[DEFAULT_PERIOD])
    if days is None:
        return None
    return (now or timezone.now()) - datetime.timedelta(days=days)


def _between_players(start: datetime.datetime | None):
    """The settlement rows of hands between two players since ``start`` (None: ever)."""
    rows = LedgerEntry.objects.filter(
        reason=LedgerEntry.Reason.SETTLEMENT,
        account__kind=User.Kind.PLAYER,
        counterpart__kind=User.Kind.PLAYER,
    )
    return rows if start is None else rows.filter(created_at__gte=start)


def suspicious_pairs(
    start: datetime.datetime | None, *, threshold: int, share_percent: int
) -> list[Pair]:
    """The pairs where one player won at least ``threshold`` beans net from the other
    since ``start`` (None: ever), and at least ``share_percent`` of the beans moved
    between them went that way; the largest net flow first. Two queries."""
    rows = list(pair_flows(start, threshold=threshold, share_percent=share_percent))
    users = User.objects.in_bulk({r[side] for r in rows for side in ("low", "high")})
    return [_pair(row, users) for row in rows]


def pair_flows(start: datetime.datetime | None, *, threshold: int, share_percent: int):
    """suspicious_pairs' figures as one grouped query: each pair once, as (low, high)
    account ids, with the beans that went each way and each side's escapes."""
    to_high, to_low = Q(account_id=F("high")), Q(account_id=F("low"))
    escaped = Q(note=ESCAPE_NOTE)
    pair_id = BigIntegerField()
    return (
        _between_players(start)
        .filter(amount__gt=0)  # the winner's row of each hand
        .annotate(
            low=Least("account_id", "counterpart_id", output_field=pair_id),
            high=Greatest("account_id", "counterpart_id", output_field=pair_id),
        )
        .values("low", "high")
        .annotate(
            hands=Count("*"),
            to_high=Coalesce(Sum("amount", filter=to_high), 0),
            to_low=Coalesce(Sum("amount", filter=to_low), 0),
            escapes_by_low=Count("id", filter=to_high & escaped),
            escapes_by_high=Count("id", filter=to_low & escaped),
        )
        .annotate(net=Abs(F("to_high") - F("to_low")), gross=F("to_high") + F("to_low"))
        # whole numbers: one way's beans * 100 >= all of them * the share in percent
        .alias(one_way=Greatest("to_high", "to_low") * 100, enough=F("gross") * share_percent)
        .filter(net__gte=max(1, threshold), one_way__gte=F("enough"))
        .order_by("-net", "low", "high")
    )


def _pair(row: dict, users: dict[int, User]) -> Pair:
    high_won = row["to_high"] > row["to_low"]
    receiver, feeder = ("high", "low") if high_won else ("low", "high")
    return Pair(
        receiver=users[row[receiver]],
        feeder=users[row[feeder]],
        hands=row["hands"],
        escapes=row[f"escapes_by_{feeder}"],
        net=row["net"],
        gross=row["gross"],
    )


def evidence(one: User, other: User, start: datetime.datetime | None):
    """The ledger rows of the hands settled between ``one`` and ``other`` since ``start``,
    both players' rows, newest first."""
    return (
        _between_players(start)
        .filter(Q(account=one, counterpart=other) | Q(account=other, counterpart=one))
        .select_related("account")
        .order_by("-created_at", "-id")
    )
