"""Per-viewer render contexts and fragments. Only ``engine.views.view(state, seat)`` and
the end-of-hand result (public once the hand is over) enter a template context: the
opponent's concealed tiles and the wall never reach a template.

The page and the WebSocket pushes render the same partials of tables/table.html; a push
renders every partial with ``oob`` set, so each root element swaps by its id.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse

from mahjong.engine.tiles import format_tile, parse_tiles
from mahjong.engine.views import view

from . import presence
from .models import Hand, Seat, Table

PARTIALS = ("notice", "status", "opponent", "rivers", "hand", "prompt", "clock", "result")
RIVER_ROW = 11

VERB_LABELS = {
    "hu": "胡",
    "pass": "过",
    "guo": "过胡",
    "pon": "碰",
    "kan": "杠",
    "ankan": "暗杠",
    "addkan": "加杠",
    "chi": "吃",
    "ting": "报听",
}


def tiles_of(text: str | None) -> list[str]:
    return [format_tile(t) for t in parse_tiles(text)] if text else []


def _rows(tiles: list[str]) -> list[list[str]]:
    return [tiles[i : i + RIVER_ROW] for i in range(0, len(tiles), RIVER_ROW)] or [[]]


def _meld(text: str) -> dict:
    if text == "ankan":
        return {"label": "暗杠", "tiles": ["", "", "", ""], "hidden": True}
    verb, tiles = text.split(" ", 1)
    return {
        "label": VERB_LABELS.get(verb, verb),
        "tiles": tiles_of(tiles.replace(" ", "")),
        "hidden": False,
    }


def _prompt(action: str) -> dict:
    verb, _, rest = action.partition(" ")
    label = VERB_LABELS.get(verb, verb)
    return {"action": action, "label": f"{label} {rest}".strip(), "verb": verb}


def _seat_view(seat_data: dict, row: Seat) -> dict:
    return {
        "index": seat_data["seat"],
        "name": row.user.display_name,
        "beans": row.user.beans,
        "bot": row.is_bot,
        "auto_play": row.auto_play,
        "count": seat_data["concealed_count"],
        "melds": [_meld(m) for m in seat_data["melds"]],
        "flowers": tiles_of(seat_data["flowers"]),
        "river": _rows(tiles_of(seat_data["river"])),
        "ting": seat_data["ting"],
        "concealed": tiles_of(seat_data["concealed"]),
        "drawn": seat_data["drawn"],
    }


def context_for(table: Table, seat: int, hand: Hand | None = None, notice: str = "") -> dict:
    hand = hand or table.current_hand()
    seats = list(table.seats.select_related("user").order_by("index"))
    v = view(hand.game(), seat)
    me, opp = (
        _seat_view(v["seats"][seat], seats[seat]),
        _seat_view(v["seats"][1 - seat], seats[1 - seat]),
    )
    legal = v["legal_actions"]
    discards = {a.split(" ", 1)[1] for a in legal if a.startswith("discard ")}
    own = [{"tile": t, "action": f"discard {t}" if t in discards else ""} for t in me["concealed"]]
    drawn = None
    if me["drawn"]:
        t = me["drawn"]
        drawn = {"tile": t, "action": f"discard {t}" if t in discards else ""}
    ended = v["phase"] == "ended"
    result = hand.result if ended else None
    scores = list(v["session"]["scores"])
    if result:  # the session's scores as the next hand will start them
        scores = [s + d for s, d in zip(scores, result.get("deltas") or [0, 0], strict=True)]
    return {
        "table": table,
        "hand": hand,
        "version": hand.version,
        "view": v,
        "seat": seat,
        "me": me,
        "opp": opp,
        "own": own,
        "drawn": drawn,
        "prompts": [_prompt(a) for a in legal if not a.startswith("discard ")],
        "my_turn": v["turn"] == seat,
        "ended": ended,
        "result": result,
        "fans": (result or {}).get("fans", []),
        "my_delta": (result or {}).get("deltas", [0, 0])[seat] if result else 0,
        "my_beans_delta": ((result or {}).get("beans") or [0, 0])[seat] if result else 0,
        "closed": table.status == Table.Status.FINISHED,
        "ready_next": seats[seat].ready_next,
        "deadline": hand.deadline.isoformat() if hand.deadline and not ended else "",
        "notice": notice,
        "haidi_shown": tiles_of(v["haidi"]["shown"]),
        "ws_url": f"/ws/tables/{table.public_id}/",
        "heartbeat": presence.HEARTBEAT,
        "act_url": reverse("tables:act", args=[table.public_id]),
        "my_score": scores[seat],
        "opp_score": scores[1 - seat],
        "viewer": seats[seat].user,
    }


def fragments(table: Table, seat: int, notice: str = "", hand: Hand | None = None) -> str:
    """Every partial of the viewer's table as out-of-band swaps (one message)."""
    ctx = context_for(table, seat, hand, notice=notice) | {"oob": True}
    parts = [render_to_string(f"tables/table.html#{name}", ctx) for name in PARTIALS]
    # the top bar's bean count, fresh from the row the settlement just wrote
    parts.append(render_to_string("base.html#beans", {"user": ctx["viewer"], "oob": True}))
    return "".join(parts)


def notice_fragment(message: str) -> str:
    return render_to_string("tables/table.html#notice", {"notice": message, "oob": True})
