"""Match history: the finished hands a player sat in, and one hand's public record.

Only hands that have ended are ever read here (``ended_at`` set, the seed revealed): a
hand in play would leak concealed tiles and the wall. A list page is a fixed number of
queries whatever its length: the hands with their table, ruleset, room and match joined,
the seats with their players prefetched, and this player's ledger rows of the page's
hands in one query (the beans come from the ledger, not from the stored result).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from accounts.models import LedgerEntry
from mahjong.engine.views import view
from mahjong.engine.wall import wall_seed
from mahjong.tables import presenters
from mahjong.tables.models import Event, Hand, Seat, Table
from mahjong.tables.presenters import VERB_LABELS, tiles_of

WON, LOST, DRAWN, CALLED_OFF = "won", "lost", "drawn", "called_off"
RESULTS = (WON, LOST, DRAWN, CALLED_OFF)
LEFT = "left"  # the ending of a stage hand the player left (ending_kind)
NO_ROOM = "none"  # the tier filter's value for private rooms and games against a bot


def ledger_key(table: Table, number: int) -> str:
    """The idempotency key tables.services settles a hand under (one posting per hand)."""
    return f"hand:{table.public_id}:{number}"


def ledger_keys(table: Table, number: int) -> tuple[str, ...]:
    """Every posting that belongs to a hand: its settlement and, in stage mode (关卡), the
    stake placed before it (mahjong.stages.services), which a lost stage hand costs and a
    won one pays back inside its settlement: the hand's beans are their sum."""
    return ledger_key(table, number), f"stage-stake:{table.public_id}:{number}"


def finished_hands(user, *, ruleset: str = "", tier: str = "", result: str = "") -> QuerySet:
    """The hands ``user`` sat in that have ended, newest first, filtered by a lobby
    ruleset slug, a room tier slug (or NO_ROOM) and the player's result."""
    mine = Q(table__seats__user=user)
    if result == WON:
        mine &= _seat_result(winner_is_me=True)
    elif result == LOST:
        mine &= _seat_result(winner_is_me=False)
    elif result == DRAWN:
        # not ~Q(called_off=True): SQL's NOT would drop the hands ended before the flag,
        # which have no such key
        not_called_off = Q(result__called_off=False) | Q(result__called_off__isnull=True)
        mine &= Q(result__winner=None) & not_called_off
    elif result == CALLED_OFF:
        mine &= Q(result__called_off=True)
    hands = Hand.objects.filter(mine, ended_at__isnull=False)
    if ruleset:
        hands = hands.filter(table__ruleset__slug=ruleset)
    if tier == NO_ROOM:
        hands = hands.filter(table__tier__isnull=True)
    elif tier:
        hands = hands.filter(table__tier__slug=tier)
    return (
        hands.select_related("table__ruleset", "table__tier", "table__match")
        .prefetch_related("table__seats__user")
        .defer("state")  # the whole engine state: a list never needs it
        .order_by("-ended_at", "-pk")
    )


def _seat_result(*, winner_is_me: bool) -> Q:
    # In one filter() with the seat condition, these refer to the same Seat row: the
    # player's own seat (0 or 1) against the winner's index kept in the result.
    q = Q()
    for index in (0, 1):
        winner = index if winner_is_me else 1 - index
        q |= Q(table__seats__index=index, result__winner=winner)
    return q


def page_rows(hands, user) -> list[dict]:
    """A list page's rows from a page of ``finished_hands``: one more query, this
    player's ledger movements for those hands."""
    hands = list(hands)
    keys = {
        key: ledger_key(h.table, h.number) for h in hands for key in ledger_keys(h.table, h.number)
    }
    beans: dict[str, int] = {}
    movements = LedgerEntry.objects.filter(account=user, idempotency_key__in=keys)
    for key, amount in movements.values_list("idempotency_key", "amount"):
        beans[keys[key]] = beans.get(keys[key], 0) + amount
    return [_row(h, user, beans.get(ledger_key(h.table, h.number))) for h in hands]


def _row(hand: Hand, user, beans: int | None) -> dict:
    seats = list(hand.table.seats.all())
    me = next(s for s in seats if s.user_id == user.pk)
    opponent = next(s for s in seats if s.pk != me.pk)
    result = hand.result or {}
    return {
        "hand": hand,
        "table": hand.table,
        "opponent": opponent.user,
        "outcome": outcome_for(result, me.index),
        "kind": ending_kind(result),
        "fan": result.get("total", 0),
        "points": (result.get("deltas") or [0, 0])[me.index],
        "beans": beans,
    }


def ending_kind(result: dict) -> str:
    """How the hand ended, for its tag: a stage hand the player left is no escape (stage
    mode has none, RULES.md 5.1: the stake is lost), as the stage table says."""
    kind = result.get("kind", "")
    return LEFT if kind == "escape" and result.get("stage") else kind


def outcome_for(result: dict, seat: int) -> str:
    if result.get("called_off"):  # the operator's close: no winner, yet never a draw
        return CALLED_OFF
    winner = result.get("winner")
    if winner is None:
        return DRAWN
    return WON if winner == seat else LOST


# ----- one hand ----------------------------------------------------------------------------


def finished_hand(table_id: str, number: int) -> Hand | None:
    """A hand by its table's public id and number, only if it has ended."""
    return (
        Hand.objects.select_related("table__ruleset", "table__tier", "table__match")
        .filter(table__public_id=table_id, number=number, ended_at__isnull=False)
        .exclude(seed="")
        .first()
    )


@dataclass(frozen=True)
class SeatRecord:
    index: int
    seat: Seat
    concealed: list[str]
    drawn: str | None
    melds: list[dict]
    flowers: list[str]
    river: list[str]
    outcome: str
    points: int


def seat_records(hand: Hand) -> list[SeatRecord]:
    """Both final hands from the engine's view of the ended state (public now)."""
    final = view(hand.game(), None)
    result = hand.result or {}
    deltas = result.get("deltas") or [0, 0]
    seats = list(hand.table.seats.select_related("user").order_by("index"))
    return [
        SeatRecord(
            index=seat.index,
            seat=seat,
            concealed=tiles_of(data["concealed"]),
            drawn=data["drawn"],
            melds=[_meld(m) for m in data["melds"]],
            flowers=tiles_of(data["flowers"]),
            river=tiles_of(data["river"]),
            outcome=outcome_for(result, seat.index),
            points=deltas[seat.index],
        )
        for seat, data in zip(seats, final["seats"], strict=True)
    ]


def decomposition(hand: Hand) -> list[list[dict]]:
    """The winning hand's blocks, each tile a 财神 plays marked, as the table shows them."""
    return presenters.result_blocks(hand.result, wild_of(hand))


def won_doubling(hand: Hand) -> int:
    """雀神's 过胡加倍 on the winner's fan, as the table's result shows it (1 elsewhere)."""
    return presenters.won_doubling(hand.game(), hand.result)


def won_cap(hand: Hand) -> dict | None:
    """The cap that cut the winner's fans, as the table's result shows it."""
    return presenters.won_cap(hand.game(), hand.result)


def wild_of(hand: Hand) -> str | None:
    """The wenzhou 财神 of the hand, in notation (None elsewhere), to mark it in the hands."""
    return view(hand.game(), None)["wild"]


def _meld(text: str) -> dict:
    verb, _, tiles = text.partition(" ")
    return {
        "verb": verb,
        "label": VERB_LABELS.get(verb, verb),
        "tiles": tiles_of(tiles.replace(" ", "")),
    }


def bean_movements(hand: Hand) -> list[LedgerEntry]:
    """The ledger rows of the hand: its settlement (both players and the house's rake)
    and a stage hand's stake."""
    return list(
        LedgerEntry.objects.filter(idempotency_key__in=ledger_keys(hand.table, hand.number))
        .select_related("account")
        .order_by("pk")
    )


def recorded_deal(hand: Hand) -> dict:
    """What each seat was dealt, as the Event log recorded it when the hand began (the
    private "hand" events), for the fairness check against the rebuilt wall."""
    hands = ["", ""]
    flowers = ["", ""]
    rows = Event.objects.filter(hand=hand, kind="hand").order_by("seq")
    for data in rows.values_list("data", flat=True):
        seat = data["private"]
        hands[seat] = (data.get("secret") or {}).get("tiles", "")
        flowers[seat] = data.get("flowers", "")
    indicator = (
        Event.objects.filter(hand=hand, kind="deal").values_list("data", flat=True).first() or {}
    ).get("indicator")
    return {"hands": hands, "flowers": flowers, "indicator": indicator}


def contributions(hand: Hand) -> list[str]:
    """Each seat's random value for the wall (engine.wall.wall_seed), "" for a seat that
    sent none: a bot, a page without script, a table's first hand, a hand dealt before."""
    return list(hand.state.get("contributions") or ("", ""))


def wall_seed_of(hand: Hand) -> str:
    """The seed the wall was shuffled from, in hex: the server seed's own without any
    contribution."""
    return wall_seed(bytes.fromhex(hand.seed), tuple(contributions(hand))).hex()


def verify_line(hand: Hand) -> dict:
    """The input line of ``python -m mahjong.engine verify`` for this hand."""
    state = hand.state
    line = {
        "ruleset": state["ruleset"]["slug"],
        "seed": hand.seed,
        "commitment": hand.commitment,
        "dealer": state["session"]["dealer"],
        "deal": recorded_deal(hand),
    }
    if any(contributions(hand)):
        line["contributions"] = contributions(hand)
    if state["ruleset"].get("overrides"):
        line["overrides"] = state["ruleset"]["overrides"]
    if state["session"].get("stage"):  # 关卡: the stage adjusts the deal from the seed
        line["stage"] = state["session"]["stage"]
        line["stage_player"] = state["session"].get("stage_player", 0)
    return line
