"""What every transition writes besides the engine's state: the event log, the next
decision's deadline and timer task, the table's close, and (after commit) the hint to the
table's sockets. The lowest part of the write path: it calls nothing above it."""

from __future__ import annotations

import datetime
import random

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from mahjong.engine import game as engine
from mahjong.engine.state import GameState

from .. import broadcast, compiled, spectators
from ..models import Hand, Match, Seat, Table

CALL_OFF = "call_off"  # the action logged for a hand the operator ended (lobby.replays)


def append_events(hand: Hand, events: list[dict]) -> None:
    """The events after the hand's log; the caller saves ``hand.event_count``."""
    seq, now = hand.event_count, timezone.now()
    compiled.insert_events(
        [(hand.pk, seq + i, hand.version, e.get("type", "?"), e, now) for i, e in enumerate(events)]
    )
    hand.event_count = seq + len(events)


def schedule(hand: Hand, state: GameState, seats: list[Seat], start=None) -> None:
    """The pending decision's deadline, and its timer task (hand, version) on commit.
    The clock runs from ``start`` (now if None): a move the claim pause's timer plays
    starts the next clock at the pause's end, whatever the timer's lateness.

    A claim window (engine.is_pause_window) first holds a pause, the same whether or not
    the seat can claim: its deadline is the pause's end plus the seat's usual clock, and
    the server acts at the pause's end (_end_pause) on a seat with nothing to claim, a
    bot, a seat on 托管 and a pass sent early (_hold)."""
    hand.pause_until = None
    if state.ended:
        hand.deadline = None
        return
    now = timezone.now()
    start = start or now
    timers = state.ruleset.timers
    paused = engine.is_pause_window(state)
    if paused:
        hand.pause_until = start + datetime.timedelta(seconds=timers.claim_pause)
        start = hand.pause_until
    delay = _clock_seconds(state, seats[state.turn], forced_shows=not paused)
    hand.deadline = start + datetime.timedelta(seconds=delay)
    arm(hand, now)


def _clock_seconds(state: GameState, seat: Seat, *, forced_shows: bool) -> float:
    """The seat's clock: a bot's human-like pause, the short delay on 托管 (or, where
    ``forced_shows``, a ready hand with nothing to decide), else the decision timer."""
    timers = state.ruleset.timers
    if seat.is_bot:
        low, high = getattr(
            settings, "TABLES_BOT_DELAY", (0.6 * timers.bot_delay, 1.4 * timers.bot_delay)
        )
        return random.uniform(low, high)
    if seat.auto_play or (forced_shows and engine.is_forced(state, state.turn)):
        return timers.locked_delay
    return timers.decision


def timer_due(hand) -> datetime.datetime | None:
    """When the server next looks at the hand: a claim pause's end, else the deadline."""
    return hand.pause_until or hand.deadline


def arm(hand: Hand, now: datetime.datetime) -> None:
    """Make sure a timer task fires at or before the hand's deadline. The hand's timer
    (``timer_version``, ``timer_at``) is the pending task that re-arms itself when it
    finds the hand moved on (timer_fired): while it fires at or before the deadline, a
    move adds no task, the common case (decisions come well inside their timers, each
    deadline later than the last). A sooner deadline (a bot's turn, a forced move) takes
    a task of its own, carrying (hand, version), which resolves that decision by its
    version; the pending timer stays the hand's, so the longer decision after the bot's
    move adds no task either. With no pending timer (none yet, or its time has come: it
    is running, or was lost), the new task becomes the hand's timer."""
    pending, due = hand.timer_at, timer_due(hand)
    if pending is not None and now < pending <= due:
        return
    enqueue_on_commit("advance", hand.pk, hand.version, eta=due)
    if pending is None or pending <= now:
        hand.timer_version, hand.timer_at = hand.version, due


def enqueue_on_commit(name: str, *args, countdown: float = 0, eta=None) -> None:
    # By name, through Celery's registry: the tasks call these services, which therefore
    # do not import them.
    task = current_app.tasks[f"mahjong.tables.tasks.{name}"]
    if task.app.conf.task_always_eager:
        return  # no worker: an eager "timer" would fire at once (tests drive timers by hand)
    transaction.on_commit(lambda: task.apply_async(args, countdown=countdown, eta=eta))


def notify_on_commit(table: Table, version: int, origin: str = "") -> None:
    """The hint to the players' sockets, then the public view to the spectators'
    (rendered here once for all of them: tables.spectators)."""
    hint = {"type": "hand.changed", "version": version, "origin": origin}

    transaction.on_commit(lambda: broadcast.group_send(table.group, hint))
    transaction.on_commit(lambda: spectators.publish(table.pk))


def close(table: Table, note: str) -> None:
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, note=note)
    if table.match_id:
        Match.objects.filter(pk=table.match_id).update(state=Match.State.FINISHED)
    table.status, table.note = Table.Status.FINISHED, note
    Hand.objects.filter(table=table).update(deadline=None)
    notify_on_commit(table, -1)
