"""The one write path for live tables (STYLE.md "one write path", ARCHITECTURE.md "How a
move flows"). HTTP views, the WebSocket consumer and Celery tasks all come here, and the
apps above the tables take part through mahjong.tables.hooks.

Every change: lock the table row (select_for_update), read its latest hand, check the
version the caller saw, call the pure engine, save the new state with version + 1, append
the events, schedule the next timer (on commit) and, after commit, tell the table's group
"hand changed, version N" -- a hint, never state. Each connection then renders its own
viewer's view.

By lifecycle, each module calling only those before it: errors, locking (the lock and
what is read under it), recording (events, timers, the close, the hint), settlement (the
end of a hand), moves, departures (leave, escape, the operator's close), opening (a table
and its hands), connections (open pages), timers (the server's own moves and the
sweeper), next_hand.
"""

from .connections import announce_absence, connected, disconnected, heartbeat
from .departures import (
    back,
    close_by_operator,
    close_orphaned_hands,
    leave,
    suspended,
)
from .errors import IllegalMove, StaleVersion, TableError
from .locking import Locked, in_play_refusal, seat_of, table_in_play
from .moves import act
from .next_hand import ready_next
from .opening import open_table
from .recording import CALL_OFF
from .settlement import counts_for_rank, is_ranked
from .timers import (
    ABANDONED_AFTER,
    SWEEP_GRACE,
    advance,
    check_escape,
    close_abandoned,
    sweep,
    timer_fired,
)

__all__ = [
    "ABANDONED_AFTER",
    "CALL_OFF",
    "SWEEP_GRACE",
    "IllegalMove",
    "Locked",
    "StaleVersion",
    "TableError",
    "act",
    "advance",
    "announce_absence",
    "back",
    "check_escape",
    "close_abandoned",
    "close_by_operator",
    "close_orphaned_hands",
    "connected",
    "counts_for_rank",
    "disconnected",
    "heartbeat",
    "in_play_refusal",
    "is_ranked",
    "leave",
    "open_table",
    "ready_next",
    "seat_of",
    "suspended",
    "sweep",
    "table_in_play",
    "timer_fired",
]
