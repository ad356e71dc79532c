"""The one write path for live tables (STYLE.md "one write path", ARCHITECTURE.md "How a
move flows"). HTTP views, the WebSocket consumer and Celery tasks all come here.

Every change: lock the table row (select_for_update), read its latest hand, check the
version the caller saw, call the pure engine, save the new state with version + 1, append
the events, schedule the next timer (on commit) and, after commit, tell the table's group
"hand changed, version N" -- a hint, never state. Each connection then renders its own
viewer's view.
"""

from __future__ import annotations

import datetime
import logging
import random
from dataclasses import dataclass, replace

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Exists, F, OuterRef, Q, Value, When
from django.utils import timezone
from django.utils.translation import get_language, gettext_noop, pgettext
from django.utils.translation import gettext as _

from accounts import bot_wallets, ranks, wallet
from accounts.models import User
from mahjong.engine import game as engine
from mahjong.engine.actions import Action, parse_action
from mahjong.engine.errors import EngineError
from mahjong.engine.fans import score_win, wild_reading
from mahjong.engine.session import base_points, match_over
from mahjong.engine.settlement import HOUSE, settle
from mahjong.engine.settlement import Table as MoneyFacts
from mahjong.engine.shapes import ESCAPE
from mahjong.engine.state import GameState
from mahjong.engine.tiles import format_tiles, parse_tiles
from mahjong.engine.wall import (
    NO_CONTRIBUTIONS,
    commitment,
    contribution,
    derive_salt,
    new_seed,
    seed_bytes,
)
from mahjong.ratings import services as ratings
from mahjong.ui import render

from . import broadcast, compiled, notes, presence, spectators, watchers
from .models import Hand, Seat, Table

log = logging.getLogger(__name__)

SWEEP_GRACE = datetime.timedelta(seconds=3)  # a lost timer delays a turn by this, not more
CALL_OFF = "call_off"  # the action logged for a hand the operator ended (lobby.replays)
ABANDONED_AFTER = datetime.timedelta(minutes=10)  # a table between hands with nobody at it


class TableError(Exception):
    """A request the table refuses; the message is shown to the player."""


class StaleVersion(TableError):
    pass


class IllegalMove(TableError):
    pass


@dataclass(frozen=True)
class Locked:
    table: Table
    hand: Hand
    seats: list[Seat]
    state: GameState


# ----- reading ---------------------------------------------------------------------------


def seat_of(table: Table, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in table.seats.all() if s.user_id == user.pk), None)


def in_play_refusal(user) -> str:
    """One game at a time (quick match, private rooms, bots, stages): a second table would
    leave the first one's hand to the timers and its escape penalty, with its stakes."""
    if table_in_play(user) is None:
        return ""
    return _("You have a hand in play at another table: finish it or leave that table first.")


def table_in_play(user) -> Table | None:
    """The table where ``user`` holds a seat in a hand still being played, if any."""
    return (
        Table.objects.filter(
            status=Table.Status.PLAYING, seats__user=user, hands__ended_at__isnull=True
        )
        .order_by("-pk")
        .first()
    )


def _lock(table_id: int) -> Locked:
    """The table's row locked for this transaction, then its current hand and its seats.
    Every transition of a table (a move, a timer, the next hand, leave, escape, close)
    takes this lock first and reads the hand after it: a request that waited for it sees
    the hand another one started meanwhile, or the table it closed (a lock of the newest
    hand's row handed a waiting request the hand before). Three queries
    (tables.compiled): the locked table with what the end of a hand reads of it, the
    hand, the seats with their players (query budget: at most 8 per action,
    tests/web/test_query_budget.py)."""
    table = compiled.locked_table(table_id)
    hand = compiled.current_hand(table_id) if table is not None else None
    if hand is None:
        raise TableError(_("This table has no hand yet."))
    hand.table = table
    return Locked(table, hand, compiled.seats(table_id), hand.game())


def _seated(locked: Locked, user) -> Seat:
    seat = next((s for s in locked.seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    # The seat's player row was read just now: a socket opened before a ban still
    # carries the account as it was then. (Bot accounts are inactive: they never log in.)
    if not seat.user.is_active and not seat.user.is_bot:
        raise TableError(_("Your account is suspended: you cannot play."))
    return seat


# ----- opening a table and its hands -----------------------------------------------------


def _seed_for(table: Table, number: int) -> bytes:
    """A fresh CSPRNG seed; a fixed one only under tests (settings refuse it otherwise)."""
    fixed = getattr(settings, "MAHJONG_TEST_SEED", "")
    if fixed and getattr(settings, "TESTING", False):
        return seed_bytes(f"{fixed}-{number}")
    return new_seed()


def _server_seed(table: Table, previous: Hand | None, number: int) -> bytes:
    """The hand's server seed: the one committed on the previous hand's result (drawn when
    that hand started, before any contribution), else a fresh one (a table's first hand,
    or a hand started before seeds were drawn ahead)."""
    if previous is not None and previous.next_seed:
        return bytes.fromhex(previous.next_seed)
    return _seed_for(table, number)


def _contributions(seats: list[Seat], previous: Hand | None) -> tuple[str, str]:
    """What each seat's browser sent with "next hand"; none for a table's first hand (it
    is dealt as the table opens, before any commitment could be shown) and a bot's."""
    if previous is None:
        return NO_CONTRIBUTIONS
    return seats[0].contribution, seats[1].contribution


def open_table(
    ruleset,
    users,
    *,
    bot_level: str = "",
    tier=None,
    match=None,
    base_points: int | None = None,
    beans_per_point: int = 0,
    stage: int = 0,
) -> Table:
    """A table for ``users`` (seat 0, seat 1) and its first hand. A bot account's seat
    plays at ``bot_level`` if given, else at its account's level; a player's never.
    ``stage`` (1-4) makes it a 关卡 table, the player in seat 0 (mahjong.stages)."""
    engine_rs = ruleset.engine()
    with transaction.atomic():
        for user in users:
            if not user.is_bot:
                _leave_tables_between_hands(user)
        _refuse_players_in_play(users)
        table = Table.objects.create(
            ruleset=ruleset,
            tier=tier,
            match=match,
            base_points=base_points or engine_rs.base_points,
            beans_per_point=beans_per_point,
        )
        for index, user in enumerate(users):
            level = (bot_level or user.bot_level or "random") if user.is_bot else ""
            Seat.objects.create(table=table, index=index, user=user, bot_level=level)
        # A player who sits down stops waiting for a quick match or a friend: a ticket still
        # open in another tab, or a room, would seat them at a second table.
        from lobby.matchmaking import leave_queues
        from lobby.rooms import close_open_rooms

        players = [u.pk for u in users if not u.is_bot]
        leave_queues(players)
        close_open_rooms(players)
        _start_hand(table, None, stage=stage)
    return table


def _refuse_players_in_play(users) -> None:
    """One game at a time, also for two requests at once (two tabs, a double click): the
    players' rows are locked, in primary-key order as the wallet locks them, before their
    tables are looked at, so the second request waits for the first to commit and then
    sees its table. (SQLite has no row locks: its transactions take the write lock at
    BEGIN, settings' IMMEDIATE, which serialises them the same way.) Bots play at many
    tables: their rows are not locked. Called after the tables left between hands are
    locked, the order of every transition that also pays (tables, then players)."""
    humans = [u for u in users if not u.is_bot]
    locked = User.objects.select_for_update().filter(pk__in=[u.pk for u in humans])
    list(locked.order_by("pk").values_list("pk", flat=True))
    for user in humans:
        refusal = in_play_refusal(user)
        if refusal and len(humans) == 1:
            raise TableError(refusal)
        if refusal:  # a match: the other player reads it too
            raise TableError(
                _("%(name)s has a hand in play at another table: this game starts once it is "
                  "over.") % {"name": user.display_name}
            )


def _start_hand(table: Table, previous: Hand | None, stage: int = 0) -> Hand:
    number = 1 if previous is None else previous.number + 1
    seed = _server_seed(table, previous, number)
    seats = compiled.seats(table.pk)
    contributions = _contributions(seats, previous)
    if previous is None:
        # every discard opens the claim window: one that opened only for an option told
        # the discarder the opponent's tiles (next_hand carries the flag)
        state = engine.new_hand(table.ruleset.engine(), seed, stage=stage, claim_pause=True)
    else:
        old = previous.game()
        scores = tuple(old.session.scores)
        deltas = (previous.result or {}).get("deltas") or [0, 0]
        scores = (scores[0] + deltas[0], scores[1] + deltas[1])
        # a table dealt before claim pauses gets them from its next hand
        state = engine.next_hand(old.evolve(claim_pause=True), None, seed, scores=scores,
                                 contributions=contributions)
    next_seed = _seed_for(table, number + 1)
    # Versions keep counting across hands, so a click from the last hand's page can never
    # match the new hand's version.
    version = 1 if previous is None else previous.version + 1
    hand = Hand.objects.create(
        table=table,
        number=number,
        state=state.to_dict(),
        version=version,
        commitment=state.commitment,
        next_seed=next_seed.hex(),
        next_commitment=commitment(next_seed, derive_salt(next_seed)),
    )
    _append(hand, engine.opening_events(state))
    Seat.objects.filter(table=table).update(ready_next=False, contribution="")
    for seat in seats:  # as the update left them (the timers read the seats)
        seat.ready_next, seat.contribution = False, ""
    _schedule(hand, state, seats)
    hand.save(update_fields=["deadline", "pause_until", *compiled.TIMER_FIELDS, "event_count"])
    _notify_on_commit(table, hand.version)
    return hand


def _append(hand: Hand, events: list[dict]) -> None:
    """The events after the hand's log; the caller saves ``hand.event_count``."""
    seq, now = hand.event_count, timezone.now()
    compiled.insert_events(
        [(hand.pk, seq + i, hand.version, e.get("type", "?"), e, now) for i, e in enumerate(events)]
    )
    hand.event_count = seq + len(events)


# ----- the move --------------------------------------------------------------------------


def act(table: Table, user, text, version, *, origin: str = "") -> Locked:
    """A player's decision, as text ("discard 5m"), made from the view at ``version``.
    The seat is checked against the seats read under the lock (no query of its own).
    Returns the table as the move left it (the new state), for the mover's own screen;
    ``origin``, the mover's socket, comes back in the hint: that screen has it already."""
    if not getattr(user, "is_authenticated", False):
        raise TableError(_("You are not seated at this table."))
    with transaction.atomic():
        locked = _lock(table.pk)
        seat = _seated(locked, user)
        try:
            action = parse_action(text)
        except EngineError:  # only a tampered client sends text the engine cannot read
            raise IllegalMove(_("Not an action of this table. Nothing was done.")) from None
        try:
            version = int(version)
        except (TypeError, ValueError):
            # a posted form's text ("", "abc", "1e3"): the socket's check says the same
            raise IllegalMove(_("Message refused: the version must be a whole number.")) from None
        if locked.hand.version != version:
            raise StaleVersion(_("The table moved on; here is the current view."))
        if _hold(locked, seat.index, action):
            return locked
        new = _apply(locked, seat.index, action, by="player", origin=origin)
    return replace(locked, state=new)


def _hold(locked: Locked, seat: int, action: Action) -> bool:
    """A pass sent before the claim pause's end waits for it (the pause timer plays it,
    as the player's own move): answered at once, it would tell the discarder that the
    window was open for an option. Only the mover's screen learns of it (no version, no
    hint); a claim instead applies at once, as taking it shows the option anyway."""
    hand = locked.hand
    if hand.pause_until is None or seat != locked.state.turn or action.verb not in ("pass", "guo"):
        return False
    if timezone.now() >= hand.pause_until or action not in engine.legal_actions(locked.state, seat):
        return False
    hand.held = str(action)
    Hand.objects.filter(pk=hand.pk).update(held=hand.held)
    return True


def _refusal(exc: EngineError) -> str:
    """The engine's refusal as the player reads it, in the page's language, from its code
    (engine.errors.ILLEGAL_ACTIONS): never the engine's English, which names phases (out
    of turn, one text whatever the opponent decides: a claim window would tell an option)."""
    code = getattr(exc, "code", None)
    if code == "not_your_turn":
        return _("It is not your turn. Nothing was done.")
    if code == "ended":
        return _("This hand has ended. Nothing was done.")
    if code == "not_held":
        language = get_language() or settings.LANGUAGE_CODE
        names = pgettext("list separator", ", ").join(
            render.tile_label(t, language) for t in parse_tiles(exc.facts["tiles"]))
        return _("Not in your hand: %(tiles)s. Nothing was done.") % {"tiles": names}
    if code == "give_back_size":
        return _(
            "Choose exactly %(size)s tiles to give back: you chose %(n)s. Nothing was done."
        ) % {"size": exc.facts["size"], "n": exc.facts["count"]}
    if code == "give_back_none":
        return _("Choose the tiles first.")
    return _("That move is not open to you now. Nothing was done.")


def _apply(
    locked: Locked, seat: int, action: Action, *, by: str, origin: str = "", start=None
) -> GameState:
    """Apply under the lock: engine, save with version + 1, events, seat flags, timers
    (the next decision's clock from ``start``, now if None)."""
    state = locked.state
    try:
        new, events = engine.apply(state, seat, action)
    except EngineError as exc:
        raise IllegalMove(_refusal(exc)) from None
    row = locked.seats[seat]
    if by == "player" and (row.timeouts or row.auto_play):
        # a move of the player's own: back from 托管 too, as "I'm back" would have it (the
        # next decision gets the whole timer, not the auto-play delay)
        row.timeouts, row.auto_play = 0, False
        Seat.objects.filter(pk=row.pk).update(timeouts=0, auto_play=False)
    elif by == "timeout":
        row.timeouts += 1
        row.auto_play = row.auto_play or row.timeouts >= 2
        Seat.objects.filter(pk=row.pk).update(timeouts=row.timeouts, auto_play=row.auto_play)
    # the seat flags first: the next decision's timer (_schedule) is the short delay when
    # this timeout put the seat on 托管 and the seat decides again (a claim let go, then
    # its own draw)
    _save(locked, new, events, actor=seat, action=str(action), by=by, origin=origin, start=start)
    return new


def _save(
    locked: Locked, new: GameState, events: list[dict], *, actor, action, by, origin="",
    start=None,
) -> None:
    hand = locked.hand
    hand.version += 1
    hand.held = ""
    hand.state = new.to_dict()
    record = {"type": "action", "seat": actor, "action": action, "by": by}
    _append(hand, [record, *events])
    if new.ended:
        hand.seed = new.seed.hex()
        hand.ended_at = timezone.now()
        hand.result = _finish(locked, new, called_off=action == CALL_OFF)
    _schedule(hand, new, locked.seats, start)
    if new.ended:
        hand.save()
        if match_over(new.ruleset, new.session) and locked.table.status == Table.Status.PLAYING:
            # gb's 8-hand match ends with this hand: its result says so, rather than offering
            # a "next hand" whose click would only close the table (ready_next)
            _close(locked.table, notes.encode(gettext_noop("The match is over.")))
    else:
        compiled.save_move(hand)
    _notify_on_commit(locked.table, hand.version, origin)


def _schedule(hand: Hand, state: GameState, seats: list[Seat], start=None) -> None:
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
    _arm(hand, now)


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


def _due(hand) -> datetime.datetime | None:
    """When the server next looks at the hand: a claim pause's end, else the deadline."""
    return hand.pause_until or hand.deadline


def _arm(hand: Hand, now: datetime.datetime) -> None:
    """Make sure a timer task fires at or before the hand's deadline. The hand's timer
    (``timer_version``, ``timer_at``) is the pending task that re-arms itself when it
    finds the hand moved on (timer_fired): while it fires at or before the deadline, a
    move adds no task, the common case (decisions come well inside their timers, each
    deadline later than the last). A sooner deadline (a bot's turn, a forced move) takes
    a task of its own, carrying (hand, version), which resolves that decision by its
    version; the pending timer stays the hand's, so the longer decision after the bot's
    move adds no task either. With no pending timer (none yet, or its time has come: it
    is running, or was lost), the new task becomes the hand's timer."""
    pending, due = hand.timer_at, _due(hand)
    if pending is not None and now < pending <= due:
        return
    _enqueue_on_commit("advance", hand.pk, hand.version, eta=due)
    if pending is None or pending <= now:
        hand.timer_version, hand.timer_at = hand.version, due


def _enqueue_on_commit(name: str, *args, countdown: float = 0, eta=None) -> None:
    from . import tasks

    task = getattr(tasks, name)
    if task.app.conf.task_always_eager:
        return  # no worker: an eager "timer" would fire at once (tests drive timers by hand)
    transaction.on_commit(lambda: task.apply_async(args, countdown=countdown, eta=eta))


def _notify_on_commit(table: Table, version: int, origin: str = "") -> None:
    """The hint to the players' sockets, then the public view to the spectators'
    (rendered here once for all of them: tables.spectators)."""
    hint = {"type": "hand.changed", "version": version, "origin": origin}

    transaction.on_commit(lambda: broadcast.group_send(table.group, hint))
    transaction.on_commit(lambda: spectators.publish(table.pk))


# ----- the server's own moves: timers, bots, sweeper, escape -----------------------------


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
    from . import bot_moves

    with transaction.atomic():
        locked = _lock(table_id)
        if locked.hand.pk != hand_id or locked.hand.version != version or locked.state.ended:
            return False
        deadline, due = locked.hand.deadline, _due(locked.hand)
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
        _apply(locked, turn, action, by=by)
    return True


def _end_pause(locked: Locked, version: int, *, timed_out: bool) -> bool:
    """A claim pause's end, under the lock: a held pass is the player's own move; a seat
    with nothing to claim passes (by "auto": not a timeout, no 托管 from it); a bot or a
    seat on 托管 decides now. Each starts the next clock at the pause's end, so a turn
    after a window with nothing to claim has the deadline the screens showed during it.
    A player with a claim to decide keeps that deadline (the timer re-arms for it),
    unless it has passed too (``timed_out``: a late timer, the sweeper)."""
    from . import bot_moves

    hand, state = locked.hand, locked.state
    seat = locked.seats[state.turn]
    now = timezone.now()
    # the next clock from the pause's end (a forced call's now, if sooner); from now
    # once the seat's whole deadline has passed
    start = None if hand.deadline <= now else min(hand.pause_until, now)
    if hand.held:
        decision = parse_action(hand.held), "player"
    elif timed_out or engine.is_forced(state, state.turn) or seat.is_bot or seat.auto_play \
            or bot_moves.is_away(seat):
        decision = bot_moves.decide(state, seat, f"{hand.commitment}:{version}")
    else:
        hand.pause_until = None
        _arm(hand, now)
        hand.save(update_fields=["pause_until", *compiled.TIMER_FIELDS])
        return False
    if decision is None:
        return False
    action, by = decision
    _apply(locked, state.turn, action, by=by, start=start)
    return True


def timer_fired(hand_id: int, version: int) -> bool:
    """A timer task (hand, version), at its time: the hand's timer, or a sooner deadline's
    own task (_arm). Either, with its decision still pending at the deadline: resolved
    (advance). Either, early (the hand moved on, or a clock ahead of the worker's): it
    re-arms for the deadline now pending. Any other (a duplicate, a timer a sooner one
    replaced) does nothing. One unlocked read decides."""
    row = compiled.timing(hand_id)
    if row is None or row.deadline is None or version not in (row.version, row.timer_version):
        return False
    now = timezone.now()
    if _due(row) <= now:
        return _advance(row.table_id, hand_id, row.version, due_by=now)
    with transaction.atomic():
        locked = _lock(row.table_id)
        hand = locked.hand
        moved_on = version not in (hand.version, hand.timer_version)
        if hand.pk != hand_id or moved_on or hand.deadline is None:
            return False
        hand.timer_at = None  # this task is spent: arm a new one for the deadline
        _arm(hand, timezone.now())
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
    from lobby.matchmaking import call_off_unseated

    call_off_unseated(now)
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
            locked = _lock(table_id)
            if (
                locked.table.status == Table.Status.PLAYING
                and locked.state.ended
                and locked.hand.ended_at < cutoff
                and not any(seat.connections > 0 for seat in locked.seats)
            ):
                _close(locked.table, notes.encode(
                    gettext_noop("Closed: nobody came back to the table after the hand.")
                ))
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
        locked = _lock(seat.table_id)
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
        _walk_out(locked, seat.index, by="disconnect", note=notes.encode(
            gettext_noop("%(name)s was disconnected too long and left the table."),
            name=locked.seats[seat.index].user.display_name))
    return True


def _escape(locked: Locked, seat: int, *, by: str) -> None:
    new, events = engine.escape(locked.state, seat)
    _save(locked, new, events, actor=seat, action="escape", by=by)


def leave(table: Table, user, after: int | None = None) -> str:
    """Leave the table: during a hand that is an escape (3.13.2); the table closes. A table
    closed already (the opponent left first, a player short of the room's minimum, the
    match over) keeps the note saying why: it is what the other player and the
    spectators read, and the second of two players leaving at once must not replace it.

    ``after`` is the number of the hand whose result the click was made on (the result
    panel's Leave, which asks no confirmation: the hand is over). If a later hand has
    started meanwhile (another tab's "next hand", against a bot), leaving would be an
    escape the player was never asked about: refused."""
    seat = seat_of(table, user)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    with transaction.atomic():
        locked = _lock(table.pk)
        if locked.table.status != Table.Status.PLAYING:
            return "left"
        if after is not None and locked.hand.number > after and not locked.state.ended:
            raise TableError(
                _("A new hand has started: nothing was done. To leave during it, use Leave "
                  "at the top of the table.")
            )
        escaped = _walk_out(locked, seat.index, by="leave", note=_left_note(user))
    return "escaped" if escaped else "left"


def _left_note(user) -> str:
    return notes.encode(gettext_noop("%(name)s left the table."), name=user.display_name)


def _leave_tables_between_hands(user) -> None:
    """A player who sits down at a new table leaves the ones where they sat after a hand
    (a hand in play elsewhere is refused before: ``table_in_play``), as Leave would:
    otherwise those stay open, on the live list, until the sweeper closes them."""
    tables = Table.objects.filter(status=Table.Status.PLAYING, seats__user=user).exclude(
        hands__ended_at__isnull=True
    )
    for table_id in tables.values_list("pk", flat=True).distinct():
        locked = _lock(table_id)
        seat = next((s for s in locked.seats if s.user_id == user.pk), None)
        if locked.table.status == Table.Status.PLAYING and locked.state.ended and seat:
            _walk_out(locked, seat.index, by="leave", note=_left_note(user))


def _walk_out(locked: Locked, seat: int, *, by: str, note: str) -> bool:
    """A seat leaves an open table (it left, or its player was banned): a hand in play
    ends as its escape; the table closes with ``note``. True if it escaped."""
    escaped = not locked.state.ended
    if escaped:
        _escape(locked, seat, by=by)
    _close(locked.table, note)
    return escaped


def suspended(user) -> int:
    """A banned player's tables close at once (accounts.services.ban): a hand in play ends
    as their escape, so the opponent gets the penalty (RULES.md 3.13) instead of playing
    on against the timers; a table between hands just closes. Returns the tables closed."""
    closed = 0
    tables = Table.objects.filter(status=Table.Status.PLAYING, seats__user=user).distinct()
    for table_id in tables.values_list("pk", flat=True):
        with transaction.atomic():
            locked = _lock(table_id)
            seat = next((s for s in locked.seats if s.user_id == user.pk), None)
            if locked.table.status != Table.Status.PLAYING or seat is None:
                continue
            _walk_out(locked, seat.index, by="ban", note=notes.encode(
                gettext_noop("Closed: %(name)s's account was suspended."), name=user.display_name
            ))
            closed += 1
    return closed


def close_by_operator(table_id: int) -> str:
    """The operator closes a table from the admin (a stuck one, say). A hand in play ends
    drawn (engine.call_off): the operator cannot tell who is to blame, so nobody wins,
    loses or pays a penalty, unlike a player's leaving or ban (_walk_out). The settlement,
    events and the closing note are written in one transaction as for any ended hand.
    Returns "called_off" (a hand was in play), "closed" (between hands) or "" (closed
    already). A closed table's hand still in play (one started as the table closed,
    before every transition locked the table: close_orphaned_hands) is called off too,
    the table's closing note kept."""
    with transaction.atomic():
        locked = _lock(table_id)
        playing = locked.table.status == Table.Status.PLAYING
        called_off = not locked.state.ended
        if called_off:
            new, events = engine.call_off(locked.state)
            _save(locked, new, events, actor=None, action=CALL_OFF, by="operator")
        if playing:
            _close(locked.table, notes.encode(gettext_noop("Closed by the site's operator.")))
    if called_off:
        return "called_off"
    return "closed" if playing else ""


def close_orphaned_hands() -> int:
    """Call off the hands still in play at tables already closed, as the operator's "Close
    the table" does; returns how many. Such hands came from a Leave, a ban or a sweep
    racing the next hand when the lock was the newest hand's row: nothing ends them (the
    timers and the sweeper skip closed tables, the admin lists the table as closed), and
    the hand's history would read as never finished (migration 0010)."""
    orphans = Hand.objects.filter(ended_at__isnull=True).exclude(
        table__status=Table.Status.PLAYING
    )
    tables = orphans.values_list("table_id", flat=True).distinct()
    return sum(close_by_operator(table_id) == "called_off" for table_id in tables)


def _close(table: Table, note: str) -> None:
    from lobby.models import Match

    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, note=note)
    if table.match_id:
        Match.objects.filter(pk=table.match_id).update(state=Match.State.FINISHED)
    table.status, table.note = Table.Status.FINISHED, note
    Hand.objects.filter(table=table).update(deadline=None)
    _notify_on_commit(table, -1)


def back(table: Table, user) -> None:
    """ "I'm back": the player takes over from auto-play (托管). A seat not on auto-play
    has nothing to take back: its click (a second tab, a repeat, a crafted post) changes
    nothing, or each one would grant a whole new timer and stall the opponent for ever."""
    seat = seat_of(table, user)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    with transaction.atomic():
        locked = _lock(table.pk)
        if not locked.seats[seat.index].auto_play:
            return
        Seat.objects.filter(pk=seat.pk).update(auto_play=False, timeouts=0)
        locked.seats[seat.index].auto_play = False
        if not locked.state.ended:
            _schedule(locked.hand, locked.state, locked.seats)  # a full timer again
            locked.hand.save(update_fields=["deadline", "pause_until", *compiled.TIMER_FIELDS])
        _notify_on_commit(locked.table, locked.hand.version)


def connected(seat: Seat, channel: str) -> None:
    """A page's socket opened. A player the opponent was told is away is back: their
    screens drop the tag (``seat`` was read before this connection counted)."""
    presence.joined(seat, channel)
    if presence.shown_away(seat):
        _presence_changed(seat.table)


def disconnected(seat: Seat, channel: str) -> None:
    """A connection closed; with none left during play, the escape clock starts, and the
    opponent is told once the player has stayed away past presence.AWAY_AFTER (a reload
    comes back sooner, and should not flash a tag on the other screen)."""
    if presence.left(seat, channel):
        table = Table.objects.select_related("ruleset").get(pk=seat.table_id)
        if table.status == Table.Status.PLAYING:
            limit = table.ruleset.engine().timers.escape
            _enqueue_on_commit("escape_check", seat.pk, countdown=limit + 1)
            away = presence.AWAY_AFTER.total_seconds()
            _enqueue_on_commit("announce_absence", seat.pk, countdown=away + 0.5)


def announce_absence(seat_id: int, now: datetime.datetime | None = None) -> bool:
    """The task disconnected() sends: if the player is still away, the table's screens
    re-render with the tag (presenters: the seat's ``away``)."""
    seat = Seat.objects.select_related("table").filter(pk=seat_id).first()
    if seat is None or seat.table.status != Table.Status.PLAYING:
        return False
    if not presence.shown_away(seat, now):
        return False
    _presence_changed(seat.table)
    return True


def _presence_changed(table: Table) -> None:
    """A player away or back, outside the hand (no version): the screens re-render now."""
    broadcast.group_send(table.group, {"type": "hand.changed", "version": None})


def heartbeat(channel: str, table_id: int) -> int | None:
    """A page's ping on ``channel``: its connection is alive; returns the version of the
    table's latest hand (presence.beat: one statement)."""
    return presence.beat(channel, table_id)[1]


# ----- the end of a hand: fans, settlement, the next hand --------------------------------


def _finish(locked: Locked, state: GameState, called_off: bool = False) -> dict:
    """What the end-of-hand panel shows, and the beans moved through the wallet ledger in
    this same transaction (idempotent per hand by the ledger's key). A hand the operator
    ``called_off`` is not counted: it was never played out, so it adds to nobody's games
    played, rank score or rating (a stage stake still comes back, as on any draw). The
    result says so: the engine's outcome is a plain draw, and the history must not read
    流局 for it (lobby.history)."""
    table, outcome, rs = locked.table, state.outcome, state.ruleset
    score = score_win(rs, outcome.context) if outcome.context is not None else None
    if score is not None and not score.is_win:
        score = None
    # The hand's base: the room's 底分 times the ruleset's level for this hand -- 1 but in
    # wenzhou, whose progressive base B (10/20/30/40) rises with the dealer's wins (9.5).
    base = table.base_points * base_points(rs, state.session)
    facts = dict(base=base, dealer=state.dealer, dealer_streak=state.session.streak)
    try:
        points = settle(rs, outcome, score, MoneyFacts(**facts))
    except EngineError as exc:  # e.g. stage has no escape settlement
        log.warning("hand %s: nothing to settle (%s)", locked.hand.pk, exc)
        points = None
    result = {
        "kind": outcome.kind,
        "winner": outcome.winner,
        "loser": outcome.loser,
        "escaper": outcome.escaper,
        "called_off": called_off,
        "fans": [
            {
                "key": f.key,
                "zh": f.zh,
                "en": f.en,
                "fan": f.fan,
                "count": f.count,
                "points": f.points,
            }
            for f in (score.fans if score else ())
        ],
        "total": score.total if score else 0,
        "decomposition": _decomposition(score),
        # which tiles of it a 财神 plays (温州): marked on the result, not the wild's face
        "wild_played": _wild_played(score, outcome.context),
        "points": points.points if points else 0,
        "deltas": [points.delta(0), points.delta(1)] if points else [0, 0],
        # the house's cut of the points (quesheng's 5%): the deltas then sum to minus it,
        # and a table without beans must say where the winner's missing points went
        "points_rake": points.rake if points else 0,
        "beans": None,
        "rake": 0,
    }
    if table.beans_per_point and points is not None:
        result.update(_pay(locked, state, score, facts))
    if state.session.stage:  # 关卡: the player's climb settles the hand (mahjong.stages)
        from mahjong.stages.services import settle_stage_hand

        result.update(settle_stage_hand(table, locked.hand.number, state, score))
    if not called_off:
        _record_stats(locked, outcome, score)
        _record_rank(locked, result["deltas"])
        ratings.record_ranked_hand(locked, result)  # Glicko-2 and leaderboard rows, once
    return result


def _decomposition(score) -> str:
    if score is None or score.decomposition is None:
        return ""
    return " ".join(format_tiles(block.tiles) for block in score.decomposition.blocks)


def _wild_played(score, context) -> list[list[bool]] | None:
    if score is None or context is None or context.wild is None:
        return None
    return [[wild for _kind, wild in block]
            for block in wild_reading(score.decomposition, context)]


def _pay(locked: Locked, state: GameState, score, facts: dict) -> dict:
    users = [s.user for s in locked.seats]
    # Lock the players' rows (and the house's, in the wallet's primary-key order) before
    # reading the balances the payment is capped at: the seats were read without a lock,
    # and a deduction committed since would make the payment exceed the balance
    # (tests/faults/test_money.py). The same query finds the house for the rake.
    rows = {
        u.pk: u
        for u in User.objects.select_for_update()
        .filter(Q(pk__in=[u.pk for u in users]) | Q(kind=User.Kind.HOUSE))
        .order_by("pk")
    }
    house = next((u for u in rows.values() if u.kind == User.Kind.HOUSE), None)
    beans = [rows[u.pk].beans for u in users]
    money = settle(
        state.ruleset,
        state.outcome,
        score,
        MoneyFacts(
            per_point=locked.table.beans_per_point, balances=beans, bring_ins=beans, **facts
        ),
    )
    legs: dict[int, list] = {}
    for t in money.transfers:
        for who, sign in ((t.payer, -1), (t.payee, 1)):
            account = (house or wallet.house()) if who == HOUSE else users[who]
            legs.setdefault(account.pk, [account, 0])[1] += sign * t.amount
    postings = [(acc, amount) for acc, amount in legs.values() if amount]
    if postings:
        ref = locked.table.match.public_id if locked.table.match_id else locked.table.public_id
        wallet.post(
            postings,
            reason=wallet.Reason.SETTLEMENT,
            key=f"hand:{locked.table.public_id}:{locked.hand.number}",
            # Each seat's row names the opponent, an escape's penalty says so: the
            # operators' page of suspicious bean flows reads both (accounts.farming).
            note=wallet.ESCAPE_NOTE if state.outcome.kind == ESCAPE else "",
            ref=ref,
            counterparts={users[0].pk: users[1], users[1].pk: users[0]},
        )
    return {"beans": [money.delta(0), money.delta(1)], "rake": money.rake}


def _record_stats(locked: Locked, outcome, score) -> None:
    """The profile's counters: hands played and won, the biggest winning hand. One UPDATE
    (every SET reads the row's old values, so the best-hand test sees the old best)."""
    humans = [s.user_id for s in locked.seats if not s.is_bot]
    if not humans:
        return
    counters = {"games_played": F("games_played") + 1}
    if outcome.winner is not None and not locked.seats[outcome.winner].is_bot:
        winner = locked.seats[outcome.winner].user_id
        counters["games_won"] = _only_for(Q(pk=winner), "games_won", F("games_won") + 1)
        if score is not None:
            better = Q(pk=winner, best_fan__lt=score.total)
            keys = [f.key for f in score.fans]
            best = Value(keys, output_field=User._meta.get_field("best_fans"))
            counters["best_fan"] = _only_for(better, "best_fan", Value(score.total))
            counters["best_fans"] = _only_for(better, "best_fans", best)
    User.objects.filter(pk__in=humans).update(**counters)


def _only_for(rows: Q, field: str, value):
    """SET ``field`` to ``value`` in the rows matching ``rows``, leave it elsewhere."""
    return Case(When(rows, then=value), default=F(field), output_field=User._meta.get_field(field))


def is_ranked(table: Table) -> bool:
    """Ranked play is a room tier's game, whatever its ruleset (ratings and the leaderboards'
    hand results): not private rooms, unranked matches or play vs a bot."""
    if table.tier_id is None:
        return False
    return table.match_id is None or table.match.ranked


def counts_for_rank(table: Table) -> bool:
    """RULES.md 4.6: the rank score counts the points of classic rooms only."""
    return is_ranked(table) and table.ruleset.engine_slug == "classic"


def _record_rank(locked: Locked, deltas: list[int]) -> None:
    """Marks a ranked hand (the ratings read the flag) and adds each human's net points of
    a classic room's hand to their rank score, in the settlement's transaction; the flag
    (under the row lock) makes it once per hand."""
    hand = locked.hand
    if hand.ranked or not is_ranked(locked.table):
        return
    hand.ranked = True
    if not counts_for_rank(locked.table):
        return
    for seat in locked.seats:
        if not seat.is_bot:
            ranks.add_points(seat.user_id, deltas[seat.index])


def ready_next(table: Table, user, after: int | None = None, contributed: str = "") -> Hand | None:
    """The player wants the next hand; it starts when every human seat does. Entry limits
    apply first: a player who cannot cover the room's minimum is told and the table closes.
    ``after`` is the number of the hand whose result the click was made on: once a later
    hand has started, the wish is already granted (a double click, a second tab) and a
    repeat does nothing rather than being refused as "still being played".
    ``contributed`` is the browser's random value for the next wall (engine.wall); the
    first click's stays: a second one cannot change it once the opponent saw its hash."""
    seat = seat_of(table, user)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    try:
        contributed = contribution(contributed)
    except EngineError:
        raise TableError(_("Your browser's random value must be 64 hex digits. Nothing was "
                           "done.")) from None
    with transaction.atomic():
        locked = _lock(table.pk)
        if locked.table.status != Table.Status.PLAYING:
            raise TableError(notes.text(locked.table.note) or _("This table is closed."))
        if after is not None and locked.hand.number > after:
            return None
        if not locked.state.ended:
            raise TableError(_("The hand is still being played."))
        # asking for the next hand is the player's own click: they are back from 托管 (the
        # "I'm back" button is not offered on the result screen), so the new hand starts
        # with their own timer rather than auto-played moves.
        row = locked.seats[seat.index]
        kept = row.contribution if row.ready_next else contributed
        Seat.objects.filter(pk=seat.pk).update(ready_next=True, auto_play=False, timeouts=0,
                                               contribution=kept)
        waiting = Seat.objects.filter(table=table, ready_next=False, bot_level="").exists()
        if waiting:
            _notify_on_commit(locked.table, locked.hand.version)
            return None
        refusal = _entry_refusal(locked)
        if refusal:
            _close(locked.table, refusal)
            return None
        _top_up_bots(locked)
        return _start_hand(locked.table, locked.hand)


def _top_up_bots(locked: Locked) -> None:
    """A bot seat starts every hand of a room with stakes able to cover the room's minimum,
    not only the first (accounts.bot_wallets): its one wallet pays at all its tables, and
    a loss it cannot cover is capped at its balance, shorting the player who won."""
    tier = locked.table.tier
    if tier is None or not locked.table.beans_per_point:
        return
    for seat in locked.seats:
        if seat.is_bot:
            bot_wallets.top_up(seat.user, tier.entry_min)


def _entry_refusal(locked: Locked) -> str | None:
    if locked.state.session.stage:  # 关卡: the stage run places the next stake or refuses
        from mahjong.stages.services import stake_for_next_hand

        return stake_for_next_hand(locked.table, locked.hand.number + 1)
    tier = locked.table.tier
    if tier is None:
        return None
    for seat in locked.seats:
        if seat.is_bot:
            continue
        beans = User.objects.values_list("beans", flat=True).get(pk=seat.user_id)
        if beans < tier.entry_min:
            return notes.encode(
                gettext_noop("%(name)s has %(beans)s beans, below the %(min)s this room needs."),
                name=seat.user.display_name, beans=f"{beans:,}", min=f"{tier.entry_min:,}",
            )
    return None
