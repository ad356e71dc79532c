"""Where the apps above the tables take part in the write path without the tables
importing them: the lobby, the stage climb (关卡) and the ratings connect receivers here
in their ``AppConfig.ready``. They are Django signals, sent with ``sender=Table``:
receivers run in the sender's thread and transaction, in the order they connected, and
``send`` hands back their answers (``answers``)."""

from __future__ import annotations

from django.dispatch import Signal

from .models import Table

# A table opened with ``player_ids`` (bots left out) seated: whatever else would seat
# them (a quick-match ticket still open in another tab, a private room) lets go of them.
players_seated = Signal()

# The sweeper's pass at ``now``: anything else left waiting for a table (a match nobody
# sat down at) is called off.
swept = Signal()

# A hand at a stage table ended (``table``, ``number``, ``state``, ``score``): the climb
# settles it and answers what the result panel shows instead of the table's own points.
stage_hand_settled = Signal()

# A hand that was not called off is settled (``locked``, ``result``): its ratings and
# leaderboard rows are written in the same transaction.
hand_recorded = Signal()

# Before hand ``number`` at a stage table: the stake is placed, or a refusal answered.
stage_hand_starting = Signal()

# What the top bar shows of the climb played at a stage ``table``: a StageRun or None.
stage_run_shown = Signal()

# A seated ``user``'s page of ``table``: receivers answer extra context for it (a
# private room's host keeps the room's spectators switch there).
table_page_shown = Signal()


def answers(signal: Signal, **named) -> list:
    """What each receiver answered, in order, for a signal sent by the tables."""
    return [answer for _receiver, answer in signal.send(sender=Table, **named)]


def first_answer(signal: Signal, **named):
    """The first receiver's answer that is not None, else None."""
    return next((a for a in answers(signal, **named) if a is not None), None)
