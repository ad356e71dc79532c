"""Bots can always stake: the bank tops a bot up before it is seated in a bean room.

A bot account (``accounts.builtin``, one per level) starts with ``BOT_FLOAT`` beans and
pays like anyone when it loses, so after a long losing run it could hold fewer beans than
a room's entry minimum and no longer cover its losses. Before a bot takes a seat in a
room with stakes, ``top_up`` brings it back to the float (or to the room's minimum, if
that is higher) from the bank: one posting through ``wallet.post`` with the bot-float
reason and the note ``bot top-up``, so the ledger says where the bot's beans came from
and the books still sum to zero.
"""

from __future__ import annotations

from django.db import transaction

from . import wallet
from .builtin import BOT_FLOAT
from .models import LedgerEntry, User

TOP_UP_NOTE = "bot top-up"


def top_up(bot: User, minimum: int) -> wallet.Posting | None:
    """Top ``bot`` up when it holds fewer than ``minimum`` beans; None when it need not."""
    if bot.kind != User.Kind.BOT:
        raise ValueError(f"{bot.username!r} is not a bot account")
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=bot.pk)
        if locked.beans >= minimum:
            bot.beans = locked.beans
            return None
        amount = max(BOT_FLOAT, minimum) - locked.beans
        # Under the row lock the bot's ledger length names this top-up exactly once.
        done = LedgerEntry.objects.filter(account=locked).count()
        return wallet.post(
            [(wallet.bank(), -amount), (bot, amount)],
            reason=wallet.Reason.BOT_FLOAT,
            note=TOP_UP_NOTE,
            key=f"bot-topup:{bot.public_id}:{done}",
        )
