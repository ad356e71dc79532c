"""Bots never run out of beans (issue 6): before a bot is seated in a room with stakes,
the bank tops it up through the wallet, with a ledger row saying so."""

import datetime

import pytest
from django.db.models import Sum
from django.utils import timezone

from accounts import wallet
from accounts.bot_wallets import TOP_UP_NOTE, top_up
from accounts.builtin import BOT_FLOAT, bot_for
from accounts.models import LedgerEntry, User
from catalogue.models import RoomTier
from lobby import matchmaking
from lobby.models import QueueTicket

pytestmark = pytest.mark.django_db


def drain(bot, left: int) -> None:
    """The bot lost all but ``left`` beans (moved to the bank, as an admin deduction)."""
    wallet.adjust(bot, left - bot.beans, note="lost", actor=None, key=f"drain:{bot.pk}:{left}")


def total_beans() -> int:
    return User.objects.aggregate(total=Sum("beans"))["total"]


def test_a_bot_below_the_minimum_is_topped_up_to_its_float_from_the_bank(builtin):
    bot = bot_for("strong")
    drain(bot, 300)
    bank_before, books = wallet.bank().beans, total_beans()
    posting = top_up(bot, 1_000)
    bot.refresh_from_db()
    assert bot.beans == BOT_FLOAT
    assert wallet.bank().beans == bank_before - (BOT_FLOAT - 300)
    assert total_beans() == books
    row = LedgerEntry.objects.get(account=bot, idempotency_key=posting.key)
    assert (row.reason, row.note, row.amount, row.balance_after) == (
        LedgerEntry.Reason.BOT_FLOAT,
        TOP_UP_NOTE,
        BOT_FLOAT - 300,
        BOT_FLOAT,
    )


def test_a_room_minimum_above_the_float_is_what_the_bot_gets(builtin):
    bot = bot_for("efficient")
    top_up(bot, BOT_FLOAT + 5_000)
    bot.refresh_from_db()
    assert bot.beans == BOT_FLOAT + 5_000


def test_no_top_up_while_the_bot_can_cover_the_room(builtin):
    bot = bot_for("novice")
    drain(bot, 1_000)
    rows = LedgerEntry.objects.filter(account=bot).count()
    assert top_up(bot, 1_000) is None
    assert LedgerEntry.objects.filter(account=bot).count() == rows
    bot.refresh_from_db()
    assert bot.beans == 1_000


def test_each_top_up_is_its_own_ledger_row(builtin):
    bot = bot_for("random")
    drain(bot, 0)
    first = top_up(bot, 500)
    drain(bot, 10)
    second = top_up(bot, 500)
    assert first.key != second.key and not second.replayed
    assert LedgerEntry.objects.filter(account=bot, note=TOP_UP_NOTE).count() == 2


def test_players_are_never_topped_up(alice):
    with pytest.raises(ValueError):
        top_up(alice, 1_000_000)
    alice.refresh_from_db()
    assert alice.beans == 20_000


def test_quick_match_bot_fill_tops_up_a_broke_bot_before_seating_it(builtin, alice):
    tier = RoomTier.objects.get(slug="novice")
    RoomTier.objects.filter(pk=tier.pk).update(bot_fill_seconds=30, bot_fill_level="strong")
    bot = bot_for("strong")
    drain(bot, tier.entry_min - 1)
    ticket = matchmaking.join(alice, RoomTier.objects.get(pk=tier.pk))
    QueueTicket.objects.filter(pk=ticket.pk).update(
        created_at=timezone.now() - datetime.timedelta(seconds=31)
    )
    match = matchmaking.fill_with_bot(ticket)
    assert match.player_two == bot
    bot.refresh_from_db()
    assert bot.beans == BOT_FLOAT
    assert LedgerEntry.objects.filter(account=bot, note=TOP_UP_NOTE).count() == 1


def test_a_bot_drained_mid_session_is_topped_up_before_the_next_hand(alice):
    """The bot's one wallet pays at all its tables: between two hands it can fall below
    the room's minimum, and a loss it could not cover would be capped, shorting alice."""
    from mahjong.tables import services as tables
    from tests.web.tables_support import play_out

    tier = RoomTier.objects.get(slug="novice")
    bot = bot_for(tier.bot_fill_level)
    table = tables.open_table(tier.ruleset, [alice, bot], tier=tier, beans_per_point=50)
    play_out(table)
    bot.refresh_from_db()
    drain(bot, 10)  # lost at its other tables meanwhile
    books = total_beans()
    assert tables.ready_next(table, alice) is not None  # the next hand starts
    bot.refresh_from_db()
    assert bot.beans == BOT_FLOAT
    assert total_beans() == books
    assert LedgerEntry.objects.filter(account=bot, note=TOP_UP_NOTE).exists()
