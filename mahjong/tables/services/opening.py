"""Opening a table for its players and dealing its hands: the wall seed from the server's
committed seed and the players' contributions (docs/RELIABILITY.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from mahjong.engine import game as engine
from mahjong.engine.wall import (
    NO_CONTRIBUTIONS,
    commitment,
    derive_salt,
    new_seed,
    seed_bytes,
)

from .. import compiled, hooks
from ..models import Hand, Seat, Table
from .departures import leave_tables_between_hands
from .errors import TableError
from .locking import in_play_refusal
from .recording import append_events, notify_on_commit, schedule


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
                leave_tables_between_hands(user)
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
        hooks.answers(hooks.players_seated, player_ids=[u.pk for u in users if not u.is_bot])
        start_hand(table, None, stage=stage)
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
                _("%(name)s has a hand in play at another table: this game starts once it is over.")
                % {"name": user.display_name}
            )


def start_hand(table: Table, previous: Hand | None, stage: int = 0) -> Hand:
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
        state = engine.next_hand(
            old.evolve(claim_pause=True), None, seed, scores=scores, contributions=contributions
        )
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
    append_events(hand, engine.opening_events(state))
    Seat.objects.filter(table=table).update(ready_next=False, contribution="")
    for seat in seats:  # as the update left them (the timers read the seats)
        seat.ready_next, seat.contribution = False, ""
    schedule(hand, state, seats)
    hand.save(update_fields=["deadline", "pause_until", *compiled.TIMER_FIELDS, "event_count"])
    notify_on_commit(table, hand.version)
    return hand
