"""Per-viewer render contexts and fragments. Only ``engine.views.view(state, seat)`` and
the end-of-hand result (public once the hand is over) enter a template context: the
opponent's concealed tiles and the wall never reach a template.

The page and the WebSocket pushes render the same partials of tables/table.html; a push
renders them all (the ``push`` partial) with ``oob`` set, so each root element swaps by its id.
"""

from __future__ import annotations

import functools
import hashlib

from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import gettext_lazy as _

from mahjong.engine.fans import cap_cut, guo_doubling, table_for, white_stands_in
from mahjong.engine.game import is_forced, is_pause_window
from mahjong.engine.hints import waits_hint
from mahjong.engine.session import base_points
from mahjong.engine.stage_offers import VERBS as STAGE_OFFERS
from mahjong.engine.state import GameState
from mahjong.engine.tiles import parse_tile
from mahjong.engine.views import view

from . import compiled, emotes, hooks, points_help, presence
from .models import Hand, Seat, Table

RIVER_ROW = 11
# Keyboard play: a key for each hand tile, left to right -- the digit row, then the row
# below it up to t, so the 16 tiles and the drawn one of a 温州 hand all have one (y u i o
# would do too, but p is Pong). table.js and the help popover list the same keys.
KEYS = "1234567890-=qwert"

# The moves' names as buttons and meld titles say them (English source, 胡/碰/杠 in Chinese).
VERB_LABELS = {
    "hu": _("Win"),
    "pass": _("Pass"),
    "guo": _("Pass the win"),
    "pon": _("Pong"),
    "kan": _("Kong"),
    "ankan": _("Concealed kong"),
    "addkan": _("Added kong"),
    "chi": _("Chow"),
    "ting": _("Declare ready"),
}
# A win on the opponent's added kong (抢杠) says so: its tile shows nowhere else.
ROB_LABEL = _("Rob the kong")
# Offered but not as prompt buttons: discards are the hand's own tiles, and the 关卡
# offers have their panel ({% stage_offer %}, in the prompt partial).
NOT_PROMPTED = ("discard", *STAGE_OFFERS)
# Keyboard play (table.js): the letter of each claim verb, as the help popover lists them.
VERB_KEYS = {
    "hu": "h",
    "pon": "p",
    "chi": "c",
    "kan": "k",
    "ankan": "k",
    "addkan": "k",
    "pass": "Escape",
    "guo": "Escape",
}


def tiles_of(text: str | None) -> list[str]:
    """The engine's compact notation one tile at a time: "123m 55z" -> 1m 2m 3m 5z 5z.

    Only ever given what the engine wrote (views, actions, the event log), so it splits
    without parse_tiles' checks: every screen's context does this a dozen times, and the
    checks were a sixth of building one."""
    out: list[str] = []
    digits = ""
    for ch in text or "":
        if ch.isdigit():
            digits += ch
        elif ch != " ":
            out += [d + ch for d in digits]
            digits = ""
    return out


def result_blocks(result: dict | None, wild: str | None) -> list[list[dict]]:
    """The winning hand block by block, each tile {"tile", "wild", "white"}: "wild" marks a
    tile a 财神 plays (the settlement's ``wild_played``), "white" a 白板 playing as the
    wild's kind; a result stored before ``wild_played`` marks the tiles of the wild's
    kind, as the page did then."""
    blocks = ((result or {}).get("decomposition") or "").split()
    played = (result or {}).get("wild_played")
    kind = parse_tile(wild) if wild else None
    out = []
    for i, block in enumerate(blocks):
        tiles = tiles_of(block)
        marks = played[i] if played else [wild is not None and t == wild for t in tiles]
        out.append(
            [
                {
                    "tile": t,
                    "wild": w,
                    "white": bool(played) and white_stands_in(parse_tile(t), w, kind),
                }
                for t, w in zip(tiles, marks)
            ]
        )
    return out


def _rows(tiles: list) -> list[list]:
    return [tiles[i : i + RIVER_ROW] for i in range(0, len(tiles), RIVER_ROW)] or [[]]


def _meld(text: str) -> dict:
    if text == "ankan":
        return {"label": VERB_LABELS["ankan"], "tiles": ["back"] * 4, "hidden": True, "verb": text}
    verb, tiles = text.split(" ", 1)
    return {
        "verb": verb,
        "label": VERB_LABELS.get(verb, verb),
        "tiles": tiles_of(tiles.replace(" ", "")),
        "hidden": False,
    }


def _prompt(action: str) -> dict:
    verb, _sep, rest = action.partition(" ")
    return {
        "action": action,
        "label": VERB_LABELS.get(verb, verb),
        "tiles": tiles_of(rest.replace(" ", "")),
        "verb": verb,
        "key": VERB_KEYS.get(verb, ""),
    }


def _prompts(v: dict) -> list[dict]:
    """The prompt buttons. A win offered on an added kong (抢杠) names itself and shows
    the kong's tile: the meld is still the pong and no discard is marked, so a bare
    "Win" said neither what it would win on nor why it was offered."""
    prompts = [_prompt(a) for a in v["legal_actions"] if a.split(" ", 1)[0] not in NOT_PROMPTED]
    if v["phase"] == "rob" and v["rob_tile"]:
        for p in prompts:
            if p["verb"] == "hu":
                p.update(label=ROB_LABEL, tiles=[v["rob_tile"]])
    return prompts


def latest_discarder(v: dict) -> int | None:
    """Whose river ends with the most recent discard: the discarder while it is open to a
    claim (or was won on); once the other seat has drawn, the seat before it. A claimed
    discard has left the river: then nothing is marked, even after a kong's replacement
    draw, until the claimer discards."""
    if v["last_discard"]:
        return v["last_discard"]["seat"]
    turn = v["turn"]
    if v["phase"] != "turn" or turn is None or v["claimed"]:
        return None
    return 1 - turn if v["seats"][turn]["has_drawn"] else None


def _river(seat_data: dict, latest_seat: int | None) -> list[list[dict]]:
    """The discards in rows of 11, the most recent one marked."""
    tiles = tiles_of(seat_data["river"])
    latest = len(tiles) - 1 if latest_seat == seat_data["seat"] else -1
    return _rows([{"tile": t, "latest": i == latest} for i, t in enumerate(tiles)])


def _seat_view(seat_data: dict, row: Seat, latest_seat: int | None = None) -> dict:
    return {
        "index": seat_data["seat"],
        "name": row.user.display_name,
        "avatar_key": row.user.public_id,  # the seat plate's face (mahjong.ui.avatars)
        "beans": row.user.beans,
        # the plate's badge: read with the seat (tables.compiled), none for a bot
        "rank": None if row.is_bot else getattr(row.user, "rank_level", None),
        "bot": row.is_bot,
        "auto_play": row.auto_play,
        "away": not row.is_bot and presence.shown_away(row),
        "count": seat_data["concealed_count"],
        "melds": [_meld(m) for m in seat_data["melds"]],
        "flowers": tiles_of(seat_data["flowers"]),
        "river": _river(seat_data, latest_seat),
        "ting": seat_data["ting"],
        "wind": seat_data["wind"],
        "concealed": tiles_of(seat_data["concealed"]),
        "drawn": seat_data["drawn"],
    }


def doubling(state: GameState, seat: int) -> int:
    """雀神's 过胡加倍: the factor the seat's passed wins put on its fan (×2 per pass, up
    to max_guo passes), 1 where the ruleset has none. Public: both seats see the passes."""
    return guo_doubling(state.ruleset, state.seat(seat).guo)


def won_cap(state: GameState, result: dict | None) -> dict | None:
    """The cap that cut the winner's fans, for its own line between their sum and the
    total (classic's 16 fan beside a total of 13 read as a wrong sum): {"value", "times"}
    ("times": a multiplier, 温州's ×8), or None."""
    if not result or not result.get("fans") or result.get("winner") is None:
        return None
    rs = state.ruleset
    cap = cap_cut(rs, [(f["fan"], f["count"]) for f in result["fans"]])
    return None if cap is None else {"value": cap, "times": table_for(rs).multiplicative}


def won_doubling(state: GameState, result: dict | None) -> int:
    """The winner's 过胡加倍 factor between the fans' sum and the total, for the result's
    line (the total read as a wrong sum without it); 1 without a scored win."""
    if not result or not result.get("fans") or result.get("winner") is None:
        return 1
    return doubling(state, result["winner"])


def hand_base(table: Table, state: GameState) -> int | None:
    """温州's progressive base (进阶分, RULES.md 9.5): the hand's B, rising with the dealer's
    wins, that a win's fan is paid at. Nothing showed it: a 1-fan win paid 10 in one hand
    and 40 a few hands later. None for a ruleset with one level."""
    rs = state.ruleset
    if len(rs.base_levels) < 2:
        return None
    return table.base_points * base_points(rs, state.session)


def hint_enabled(table: Table, seats: list[Seat], seat: int) -> bool:
    """听牌提示: the room tier's setting; without a tier (play vs bot, a private room)
    it helps against a bot, and stays off between two people."""
    if table.tier_id is None:
        return seats[1 - seat].is_bot
    # Read once per Table object: a socket pushes with the same object, refreshed each
    # time (which drops the cached tier), and a push should cost no extra query.
    if not hasattr(table, "_waits_hint"):
        table._waits_hint = table.tier.waits_hint
    return table._waits_hint


def _prefs(user) -> dict:
    """The viewer's remembered table settings (accounts.preferences)."""
    return {
        "sound_on": user.sound_on,
        "motion_on": user.motion_on,
        "emotes_muted": user.emotes_muted,
        "auto_win": user.auto_win,
        "auto_pass": user.auto_pass,
        "discard_drawn": user.discard_drawn,
    }


def _stage_run(table: Table):
    """关卡: the climb's score against the stage's pass score, for the top bar (the
    session's points there mean nothing to a stage player)."""
    return hooks.first_answer(hooks.stage_run_shown, table=table)  # mahjong.stages


def _hashed(contribution: str) -> str:
    """SHA-256 of a contribution's 32 bytes (its hex decoded), "" for none."""
    return hashlib.sha256(bytes.fromhex(contribution)).hexdigest() if contribution else ""


def context_for(
    table: Table,
    seat: int,
    hand: Hand | None = None,
    notice: str = "",
    *,
    seats: list[Seat] | None = None,
    state: GameState | None = None,
) -> dict:
    hand = hand or table.current_hand()
    seats = seats or compiled.seats(table.pk)
    state = state or hand.game()
    v = view(state, seat)
    latest = latest_discarder(v)
    me, opp = (
        _seat_view(v["seats"][seat], seats[seat], latest),
        _seat_view(v["seats"][1 - seat], seats[1 - seat], latest),
    )
    # the passed wins' doubling: a tag at each seat, and the result's line between the
    # fans and a total that was their sum times it (it read as a wrong sum)
    me["doubling"], opp["doubling"] = doubling(state, seat), doubling(state, 1 - seat)
    legal = v["legal_actions"]
    ended = v["phase"] == "ended"
    hint_on = hint_enabled(table, seats, seat)
    hint = waits_hint(state, seat) if hint_on and not ended else None
    ready = {o["discard"]: o for o in (hint or {}).get("discards", ())}
    discards = {a.split(" ", 1)[1] for a in legal if a.startswith("discard ")}
    own = [_own(t, discards, ready) for t in me["concealed"]]
    drawn = _own(me["drawn"], discards, ready) if me["drawn"] else None
    for i, t in enumerate(own + ([drawn] if drawn else [])):
        t["key"] = KEYS[i] if i < len(KEYS) else ""
    result = hand.result if ended else None
    passing = v["turn"] == seat and _passing(state, hand, seat)
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
        # a claim window this seat lets go (nothing to claim, or a pass sent before the
        # pause's end): no buttons, the server passes at the pause's end
        "prompts": [] if passing else _prompts(v),
        "passing": passing,
        "my_turn": v["turn"] == seat,
        # the server plays this turn after the short delay: the clock's seconds are
        # nobody's decision to count down
        "auto_turn": not ended and (passing or _server_plays(state, seats, v["turn"], seat)),
        "ended": ended,
        "result": result,
        "fans": (result or {}).get("fans", []),
        "won_doubling": won_doubling(state, result),
        "won_cap": won_cap(state, result),
        # a win's payment formula with this table's numbers, under its points
        "points_help": points_help.lines(table, state.ruleset, result.get("winner"))
        if result and result.get("fans")
        else [],
        # the winning hand's reading, block by block ("123m 55z" -> tiles per block)
        "blocks": result_blocks(result, v["wild"]),
        "my_delta": (result or {}).get("deltas", [0, 0])[seat] if result else 0,
        "my_beans_delta": ((result or {}).get("beans") or [0, 0])[seat] if result else 0,
        "closed": table.status == Table.Status.FINISHED,
        # 关卡: the climb moves on from the stage screen, not the lobby
        "stage_table": bool(state.session.stage),
        "stage_run": _stage_run(table) if state.session.stage else None,
        "ready_next": seats[seat].ready_next,
        # the opponent asked for the next hand: it starts with this player's click
        "opp_ready_next": seats[1 - seat].ready_next and not seats[1 - seat].is_bot,
        # its value is fixed now: the hash shows it, the value itself waits for the deal
        "opp_contribution_hash": _hashed(seats[1 - seat].contribution),
        "deadline": hand.deadline.isoformat() if hand.deadline and not ended else "",
        "notice": notice,
        "haidi_shown": tiles_of(v["haidi"]["shown"]),
        "hand_base": hand_base(table, state),
        # the most tiles the own row holds (13 + the drawn one; 温州 16 + 1): its tiles' size
        "hand_slots": state.ruleset.hand_size + 1,
        "ws_url": f"/ws/tables/{table.public_id}/",
        "heartbeat": presence.HEARTBEAT,
        **table_urls(table.public_id),
        "my_score": scores[seat],
        "opp_score": scores[1 - seat],
        "viewer": seats[seat].user,
        "wild": v["wild"],
        "hint": hint,
        "hint_on": hint_on,
        "prefs": _prefs(seats[seat].user),
        "emotes": emotes.choices(),
    }


def _passing(state: GameState, hand: Hand, seat: int) -> bool:
    return is_pause_window(state) and (bool(hand.held) or is_forced(state, seat))


def _server_plays(state: GameState, seats: list[Seat], turn: int | None, viewer: int) -> bool:
    """Whether the server moves the seat to play after a short delay: the viewer's on 托管
    or with a ready hand and nothing to decide; the opponent's when it is a bot or on 托管
    (both shown at the table). A bot's second of "thinking" showed as "Bot to move 1s" in
    red, the last seconds of a clock, at every one of its moves. Whether the opponent's
    locked hand has a choice is not the viewer's to see: its seconds stay."""
    if turn is None:
        return False
    row = seats[turn]
    if turn != viewer:
        return row.is_bot or row.auto_play
    return row.auto_play or is_forced(state, turn)


def table_urls(public_id: str) -> dict[str, str]:
    """The table's action URLs as the pushes' partials use them (act_url, emote_url,
    leave_url, back_url, next_url). reverse() costs about 20 us each, and every screen's
    fragments used three or more, for URLs that never change for a table."""
    return dict(_table_urls(get_script_prefix(), get_urlconf(), public_id))


@functools.lru_cache(maxsize=4096)
def _table_urls(_prefix: str, _urlconf, public_id: str) -> dict[str, str]:
    names = ("act", "emote", "leave", "back", "next")
    return {f"{name}_url": reverse(f"tables:{name}", args=[public_id]) for name in names}


def _own(tile: str, discards: set[str], ready: dict) -> dict:
    """One of the viewer's concealed tiles: its discard action if legal, and whether
    discarding it keeps the hand ready (the waits hint)."""
    return {
        "tile": tile,
        "action": f"discard {tile}" if tile in discards else "",
        "keeps_ready": tile in ready,
    }


def fragments(table: Table, seat: int, notice: str = "", hand: Hand | None = None, **known) -> str:
    """Every partial of the viewer's table as out-of-band swaps (one message). ``known``:
    the seats and the state, when the caller has them."""
    ctx = context_for(table, seat, hand, notice=notice, **known) | {"oob": True}
    return render_to_string("tables/table.html#push", ctx)


def fragments_after_move(done, seat: int) -> str | None:
    """The mover's own fragments from what its move had in hand (services.act: the table,
    the hand and seats read under the lock, the new state), without reading them again;
    None at the end of a hand, whose settlement changed what the seats show (beans)."""
    if done.state.ended:
        return None
    return fragments(done.table, seat, hand=done.hand, seats=done.seats, state=done.state)


def fragments_now(table_id: int, seat: int, notice: str = "") -> tuple[Table, str]:
    """What a socket pushes: the table as it is now (re-read with its hand in one query)
    and this seat's fragments of it."""
    hand = compiled.latest_hand(table_id)  # with its table, in one query
    return hand.table, fragments(hand.table, seat, notice=notice, hand=hand)


def notice_fragment(message: str) -> str:
    return render_to_string("tables/table.html#notice", {"notice": message, "oob": True})
