"""The server's own moves: a timer's default action, a bot's move, the end of a claim
pause, and the sweeper that catches lost timers, escapes and abandoned tables."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from mahjong.engine import game as engine
from mahjong.engine.actions import parse_action

from .. import bot_moves, compiled, hooks, notes, presence, watchers
from ..models import Hand, Seat, Table
from .connections import announce_absence
from .departures import walk_out
from .locking import Locked, lock
from .moves import apply
from .recording import arm, close, timer_due

SWEEP_GRACE = datetime.timedelta(seconds=3)  # a lost timer delays a turn by this, not more


ABANDONED_AFTER = datetime.timedelta(minutes=10)  # a table between hands with nobody at it


def advance(hand_id: int, version: int, *, due_by=None) -> bool:
    """The timer of (hand, version): a bot seat moves at its level, an auto-played seat
    (托管, disconnected) at the efficient level, a player's timeout takes the engine's
    default action (bot_moves.decide). Does nothing if the hand has moved on."""
    # A timer that fires after the hand moved on: one unlocked read settles it (the
    # version is checked again under the lock).
    table_id = (
        Hand.objects.filter(pk=hand_id, version=version, ended_at__isnull=True)
        .values_list("table_id", flat=True)
        .first()
    )
    return table_id is not None and _advance(table_id, hand_id, version, due_by=due_by)


def _advance(table_id: int, hand_id: int, version: int, due_by=None) -> bool:
    """advance, under the table's lock. A timer (``due_by``: its clock) checks the deadline
    again under the lock: "I'm back" (back) committed since its unlocked read gave the
    player a whole new timer, and the 托管 move it was about to make is no longer due."""
    with transaction.atomic():
        locked = lock(table_id)
        if locked.hand.pk != hand_id or locked.hand.version != version or locked.state.ended:
            return False
        deadline, due = locked.hand.deadline, timer_due(locked.hand)
        if due_by is not None and (due is None or due > due_by):
            return False
        if locked.table.status != Table.Status.PLAYING:
            return False
        if locked.hand.pause_until is not None:
            return _end_pause(locked, version, timed_out=due_by is None or deadline <= due_by)
        turn = locked.state.turn
        seed = f"{locked.hand.commitment}:{version}"
        decision = bot_moves.decide(locked.state, locked.seats[turn], seed)
        if decision is None:
            return False
        action, by = decision
        apply(locked, turn, action, by=by)
    return True


def _end_pause(locked: Locked, version: int, *, timed_out: bool) -> bool:
    """A claim pause's end, under the lock: a held pass is the player's own move; a seat
    with nothing to claim passes (by "auto": not a timeout, no 托管 from it); a bot or a
    seat on 托管 decides now. Each starts the next clock at the pause's end, so a turn
    after a window with nothing to claim has the deadline the screens showed during it.
    A player with a claim to decide keeps that deadline (the timer re-arms for it),
    unless it has passed too (``timed_out``: a late timer, the sweeper)."""
    hand, state = locked.hand, locked.state
    seat = locked.seats[state.turn]
    now = timezone.now()
    # the next clock from the pause's end (a forced call's now, if sooner); from now
    # once the seat's whole deadline has passed
    start = None if hand.deadline <= now else min(hand.pause_until, now)
    if hand.held:
        decision = parse_action(hand.held), "player"
    elif (
        timed_out
        or engine.is_forced(state, state.turn)
        or seat.is_bot
        or seat.auto_play
        or bot_moves.is_away(seat)
    ):
        decision = bot_moves.decide(state, seat, f"{hand.commitment}:{version}")
    else:
        hand.pause_until = None
        arm(hand, now)
        hand.save(update_fields=["pause_until", *compiled.TIMER_FIELDS])
        return False
    if decision is None:
        return False
    action, by = decision
    apply(locked, state.turn, action, by=by, start=start)
    return True


def timer_fired(hand_id: int, version: int) -> bool:
    """A timer task (hand, version), at its time: the hand's timer, or a sooner deadline's
    own task (arm). Either, with its decision still pending at the deadline: resolved
    (advance). Either, early (the hand moved on, or a clock ahead of the worker's): it
    re-arms for the deadline now pending. Any other (a duplicate, a timer a sooner one
    replaced) does nothing. One unlocked read decides."""
    row = compiled.timing(hand_id)
    if row is None or row.deadline is None or version not in (row.version, row.timer_version):
        return False
    now = timezone.now()
    if timer_due(row) <= now:
        return _advance(row.table_id, hand_id, row.version, due_by=now)
    with transaction.atomic():
        locked = lock(row.table_id)
        hand = locked.hand
        moved_on = version not in (hand.version, hand.timer_version)
        if hand.pk != hand_id or moved_on or hand.deadline is None:
            return False
        hand.timer_at = None  # this task is spent: arm a new one for the deadline
        arm(hand, timezone.now())
        compiled.save_timer(hand)
    return False


def sweep(now: datetime.datetime | None = None) -> int:
    """Resolve every decision whose deadline passed a few seconds ago (a lost timer), and
    every player disconnected for longer than the escape limit. Returns moves made.

    A hand's timer lost before its time (a Redis restart, a killed worker) would leave
    its later decisions to this sweep too, each a few seconds late: a timer overdue
    by SWEEP_GRACE with its deadline still to come is re-armed instead (timer_fired)."""
    now = now or timezone.now()
    moved = 0
    late = now - SWEEP_GRACE
    overdue = Hand.objects.filter(
        Q(deadline__lt=late) | Q(pause_until__lt=late) | Q(timer_at__lt=late, deadline__gte=now),
        ended_at__isnull=True,
        table__status=Table.Status.PLAYING,
    ).values_list("pk", "version", "deadline", "pause_until", "timer_version")
    for hand_id, version, deadline, pause_until, timer_version in overdue:
        if (pause_until or deadline) < late:
            moved += advance(hand_id, version, due_by=late)
        else:
            timer_fired(hand_id, timer_version)
    # connections of a dead web process: gone since their last heartbeat, long enough for
    # the opponent to be told at once
    for seat_id in presence.reap(now):
        announce_absence(seat_id, now)
    watchers.reap(now)  # and its spectators: the players' count drops them
    # Only seats whose table has a hand in play: a table left between hands (its player
    # closed the tab after the result) stays open, and would otherwise cost every sweep
    # of every worker a few queries, for ever.
    gone = (
        Seat.objects.filter(
            disconnected_at__isnull=False,
            connections__lte=0,
            table__status=Table.Status.PLAYING,
            table__hands__ended_at__isnull=True,
        )
        .values_list("pk", flat=True)
        .distinct()
    )
    for seat_id in gone:
        moved += check_escape(seat_id, now=now)
    close_abandoned(now)
    hooks.answers(hooks.swept, now=now)
    return moved


def close_abandoned(now: datetime.datetime | None = None) -> int:
    """Close the tables left between hands: the last hand over for ABANDONED_AFTER and no
    player's page open. No hand was in play, so nobody escaped and nobody pays; the table
    leaves the live list and its match ends. Returns the tables closed."""
    now = now or timezone.now()
    cutoff = now - ABANDONED_AFTER
    hands = Hand.objects.filter(table=OuterRef("pk"))
    candidates = Table.objects.filter(
        Exists(hands),  # a table row without a hand is none of the sweeper's (no service's)
        ~Exists(hands.filter(Q(ended_at__isnull=True) | Q(ended_at__gte=cutoff))),
        ~Exists(Seat.objects.filter(table=OuterRef("pk"), connections__gt=0)),
        status=Table.Status.PLAYING,
    ).values_list("pk", flat=True)
    closed = 0
    for table_id in candidates:
        with transaction.atomic():  # checked again under the lock: a player may be back
            locked = lock(table_id)
            if (
                locked.table.status == Table.Status.PLAYING
                and locked.state.ended
                and locked.hand.ended_at < cutoff
                and not any(seat.connections > 0 for seat in locked.seats)
            ):
                close(
                    locked.table,
                    notes.encode(
                        gettext_noop("Closed: nobody came back to the table after the hand.")
                    ),
                )
                closed += 1
    return closed


def check_escape(seat_id: int, now: datetime.datetime | None = None) -> bool:
    """RULES.md 3.13: disconnected for more than the escape limit during a hand. Only a
    fresh connection counts (tables.presence): a dead process's ones are reaped first."""
    now = now or timezone.now()
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        return False
    presence.reap(now, seat_ids=[seat_id])
    with transaction.atomic():
        locked = lock(seat.table_id)
        seat = Seat.objects.get(pk=seat_id)
        if locked.table.status != Table.Status.PLAYING or locked.state.ended:
            return False
        if seat.disconnected_at is None or presence.present(seat_id, now):
            return False
        limit = datetime.timedelta(seconds=locked.state.ruleset.timers.escape)
        if now - seat.disconnected_at <= limit:
            return False
        # the table closes as on Leave: its "next hand" would wait for ever on a player
        # who is gone, and the one left is told so and shown the way out
        walk_out(
            locked,
            seat.index,
            by="disconnect",
            note=notes.encode(
                gettext_noop("%(name)s was disconnected too long and left the table."),
                name=locked.seats[seat.index].user.display_name,
            ),
        )
    return True
