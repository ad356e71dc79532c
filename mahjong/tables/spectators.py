"""Watching a table: who may, which tables are live, and what a spectator sees.

A spectator's whole context comes from ``engine.views.view(state, None)``: rivers, melds
(concealed kongs face down), flowers, concealed COUNTS, the wall count, the clock, and
both hands only once the hand has ended (with the seed). Nothing else about the hand
enters a spectator template.

The spectator view is the same for everyone, so it is rendered once per change and
pushed (ARCHITECTURE.md's allowed optimisation): after each hint to the players, the
thread that made the change renders the public view once per language its spectators
read (``publish``) and sends the HTML to that language's group (``view_group``). A
spectator socket only forwards it, with no read, render or thread of its own: a crowd
costs one render, not one each, and an unwatched table one query. Each push is the whole
view, so a lost one heals with the next, and a (re)connect renders a snapshot, shared
through the cache by the crowd arriving at once (``fragments``). ``watch_group`` carries
the host's "closed to spectators".
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from mahjong.engine.tiles import format_tile, parse_tiles
from mahjong.engine.views import HIDDEN_KONG, view

from . import broadcast, compiled, hooks, watchers
from .models import Hand, Seat, Table
from .presenters import doubling, result_blocks, won_cap, won_doubling

_RENDERING = threading.Lock()
PARTIALS = ("watch_notice", "watch_status", "watch_seats", "watch_clock", "watch_result")
RENDER_TTL = 120  # seconds a shared rendering is kept; a new version renders anew
LIVE_LIMIT = 50


def watch_group(table: Table) -> str:
    return f"{table.group}-watch"


def view_group(table: Table, language: str) -> str:
    """The spectators who read the table in ``language``: each gets the same pushed HTML."""
    return f"{watch_group(table)}-{language}"


def publish(table_id: int) -> None:
    """The table changed: its public view, rendered once per language watched, to those
    spectators (no query beyond one when nobody watches). The message names the hand and
    version, so a socket drops a push older than what its page shows."""
    languages = watchers.languages(table_id)
    if not languages:
        return
    hand = compiled.latest_hand(table_id)
    for language in languages:
        with translation.override(language or settings.LANGUAGE_CODE):
            html = render(hand.table, hand)
        message = {"type": "watch.view", "html": html, "at": [hand.number, hand.version]}
        broadcast.group_send(view_group(hand.table, language), message)


def close_watchers(table: Table) -> None:
    """Close every spectator socket of this table (the host closed it to spectators)."""
    broadcast.group_send(watch_group(table), {"type": "watch.closed"})


def refusal(table: Table) -> str | None:
    """Why nobody may watch this table, or None: a private room's host may close it."""
    match = table.match if table.match_id else None
    room = getattr(match, "private_room", None) if match else None
    if room is not None and not room.allow_spectators:
        return _("The host of this private room does not allow spectators.")
    return None


def live_tables():
    """Tables being played that spectators may open, newest first: a hand in progress
    (its latest hand not ended). A table left between hands stays PLAYING until the
    sweeper closes it, a bot table whose player closed the tab on the result screen too:
    a spectator opening one would find a finished hand and nobody."""
    closed_rooms = Q(match__private_room__allow_spectators=False)
    in_progress = Exists(Hand.objects.filter(table=OuterRef("pk"), ended_at__isnull=True))
    return (
        Table.objects.filter(in_progress, status=Table.Status.PLAYING)
        .exclude(closed_rooms)
        .select_related("ruleset", "tier")
        .prefetch_related("seats__user")
        .annotate(watching=watchers.counted())
        .order_by("-created_at")[:LIVE_LIMIT]
    )


def _tiles(text: str | None) -> list[str]:
    return [format_tile(t) for t in parse_tiles(text)] if text else []


def _meld(text: str) -> dict:
    if text == HIDDEN_KONG:
        return {"verb": HIDDEN_KONG, "tiles": [], "hidden": True}
    verb, tiles = text.split(" ", 1)
    return {"verb": verb, "tiles": _tiles(tiles.replace(" ", "")), "hidden": False}


def _seat(data: dict, row: Seat, wild: str | None) -> dict:
    return {
        "index": data["seat"],
        "name": row.user.display_name,
        "avatar_key": row.user.public_id,
        "auto_play": row.auto_play,
        "count": data["concealed_count"],
        "backs": range(data["concealed_count"]),
        # empty until the hand has ended
        "concealed": [{"tile": t, "wild": t == wild} for t in _tiles(data["concealed"])],
        "drawn": data["drawn"],
        "melds": [_meld(m) for m in data["melds"]],
        "flowers": _tiles(data["flowers"]),
        "river": _tiles(data["river"]),
        "ting": data["ting"],
        "wind": data["wind"],
    }


def _stage_run(table: Table, state):
    """关卡: the climb's score against the stage's pass score, as the player's top bar shows
    it; the session's points (the stakes lost) mean nothing there."""
    if not state.session.stage:
        return None
    return hooks.first_answer(hooks.stage_run_shown, table=table)  # mahjong.stages


def context_for(table: Table, hand: Hand | None = None) -> dict:
    hand = hand or table.current_hand()
    rows = compiled.seats(table.pk)
    state = hand.game()
    v = view(state, None)
    ended = v["phase"] == "ended"
    seats = [
        _seat(v["seats"][i], rows[i], v["wild"]) | {"doubling": doubling(state, i)} for i in (0, 1)
    ]
    result = hand.result if ended else None
    scores = list(v["session"]["scores"])
    if result:  # as the next hand will start them, like the players' panel
        scores = [s + d for s, d in zip(scores, result.get("deltas") or [0, 0], strict=True)]
    for seat, score in zip(seats, scores, strict=True):
        seat["score"] = score
    return {
        "table": table,
        "version": hand.version,
        "view": v,
        "seats": seats,
        "top": seats[1],
        "bottom": seats[0],
        "ended": ended,
        "closed": table.status == Table.Status.FINISHED,
        "result": result,
        "winner": seats[result["winner"]] if result and result.get("winner") is not None else None,
        # 过胡加倍: the factor between the fans' sum and the total
        "won_doubling": won_doubling(state, result),
        "won_cap": won_cap(state, result),
        "escaper": seats[result["escaper"]] if (result or {}).get("escaper") is not None else None,
        "loser": seats[result["loser"]] if (result or {}).get("loser") is not None else None,
        # the winning hand block by block, drawn as tiles (not the engine's "567m 66z")
        "blocks": result_blocks(result, v["wild"]),
        "seed": v.get("seed", ""),
        "stage_table": bool(state.session.stage),  # 关卡: leaving is no escape (RULES.md 5.1)
        "stage_run": _stage_run(table, state),
        "deadline": hand.deadline.isoformat() if hand.deadline and not ended else "",
        "haidi_shown": _tiles(v["haidi"]["shown"]),
        "ws_url": f"/ws/tables/{table.public_id}/watch/",
    }


def fragments(table: Table, hand: Hand | None = None) -> str:
    """Every spectator partial as out-of-band swaps (one message), shared through the
    cache by all spectators of this version in this language."""
    hand = hand or table.current_hand()
    # the version, and what changes without one: closing, 托管 flags, a fresh timer
    flags = "".join("a" if s.auto_play else "-" for s in table.seats.all())
    key = f"tables:watch:{table.public_id}:{hand.pk}:{hand.version}:{table.status}:{flags}"
    key += f":{hand.deadline.timestamp() if hand.deadline else ''}:{get_language()}"
    html = cache.get(key)
    if html is None:
        with _RENDERING:  # the crowd's sockets run in parallel threads: one renders
            html = cache.get(key)
            if html is None:
                html = render(table, hand)
                cache.set(key, html, RENDER_TTL)
    return html


def render(table: Table, hand: Hand) -> str:
    ctx = context_for(table, hand) | {"oob": True}
    return "".join(render_to_string(f"tables/watch.html#{p}", ctx) for p in PARTIALS)


def notice_fragment(message: str) -> str:
    return render_to_string("tables/watch.html#watch_notice", {"notice": message, "oob": True})


def closed_fragment(message: str) -> str:
    """Why the watching stopped, and the clock cleared: it went on counting down to the
    deadline of a move the page would never see ("Dave to move 0s" under the notice)."""
    clock = render_to_string("tables/watch.html#watch_clock", {"closed": True, "oob": True})
    return notice_fragment(message) + clock
