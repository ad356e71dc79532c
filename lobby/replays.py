"""Replays (牌谱): a finished hand rebuilt step by step by the engine.

Nothing here trusts a stored snapshot of the tiles. The wall comes from the hand's revealed
seed (checked against the commitment published when the hand began), the moves from the
append-only Event log, and every move is validated by the engine as it was live. The
record supplies only what is not random: the ruleset as configured for that table and the
session (hand number, dealer, scores), which a hand never changes. The rebuilt end must
equal the recorded final state (Hand.state) exactly, or the replay is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.utils.translation import gettext

from mahjong.engine.errors import EngineError, SeedMismatch
from mahjong.engine.game import call_off, escape, replay, revealed_start
from mahjong.engine.state import GameState
from mahjong.engine.views import view
from mahjong.tables.models import Hand
from mahjong.tables.presenters import VERB_LABELS, latest_discarder, tiles_of
from mahjong.tables.services import CALL_OFF  # the operator's close: the hand ended drawn

ESCAPE = "escape"  # logged by tables.services for a player who left; not a game action
SWAP = "swap"  # 关卡 游戏中换牌 (RULES.md 5.4.4): give back 3 concealed tiles for a triplet


class ReplayError(Exception):
    """The record cannot be replayed: a hand still in play, or one that does not rebuild."""


@dataclass(frozen=True)
class Step:
    number: int
    state: GameState
    seat: int | None = None  # who acted to reach this step (None: the deal)
    action: str = ""
    by: str = ""  # "player", "timeout", "bot", ... as tables.services logged it


def rebuild(hand: Hand) -> list[Step]:
    """Every state of a finished hand from the deal to the end, rebuilt by the engine."""
    if hand.ended_at is None or not hand.seed:
        raise ReplayError("the hand is still being played")
    return rebuild_from(hand.state, hand.seed, hand.commitment, hand.moves())


def rebuild_from(
    record: dict, seed_hex: str, published: str, moves: list[tuple[int, str, str]]
) -> list[Step]:
    """The steps from the seed and the moves; ``record`` (the stored final state) gives
    the ruleset and session, and the rebuilt end must equal it."""
    try:
        state = revealed_start(record, seed_hex, published)
    except SeedMismatch as exc:
        raise ReplayError(str(exc)) from None
    steps = [Step(0, state)]
    try:
        for number, (seat, action, by) in enumerate(moves, start=1):
            if action == ESCAPE:
                state, _events = escape(state, seat)
            elif action == CALL_OFF:
                state, _events = call_off(state)
            else:
                state, _events = replay(state, [(seat, action)])
            steps.append(Step(number, state, seat, action, by))
    except EngineError as exc:
        raise ReplayError(f"move {len(steps)} does not replay: {exc}") from None
    if _as_json(state.to_dict()) != _as_json(record):
        raise ReplayError("the rebuilt hand does not end in the recorded final state")
    return steps


def _as_json(data: dict) -> str:
    # Tuples and lists, int and float keys: compare the JSON the database stores.
    return json.dumps(data, sort_keys=True)


def clamp(step: str | None, last: int) -> int:
    """The ``?step=`` of a URL as an index: bad text is the deal, too far is the end."""
    try:
        value = int(step or 0)
    except ValueError:
        return 0
    return min(max(value, 0), last)


def step_context(steps: list[Step], index: int) -> dict:
    """What the replay page shows at ``steps[index]``: both hands (the hand is over) and
    the actions the engine offered each seat there, the one taken next marked."""
    step = steps[index]
    following = steps[index + 1] if index + 1 < len(steps) else None
    views = [view(step.state, seat) for seat in (0, 1)]
    # the river whose last tile is ringed, as the table rings it until the next discard
    latest = latest_discarder(views[0])
    seats = []
    for seat in (0, 1):
        data = views[seat]["seats"][seat]
        taken = following.action if following is not None and following.seat == seat else ""
        seats.append(
            {
                "index": seat,
                "concealed": tiles_of(data["concealed"]),
                "drawn": data["drawn"],
                "melds": [meld_shown(m) for m in data["melds"]],
                "flowers": tiles_of(data["flowers"]),
                "river": tiles_of(data["river"]),
                "latest": latest == seat and bool(data["river"]),  # none yet at the deal
                "ting": data["ting"],
                "to_act": views[seat]["turn"] == seat,
                "prompts": _prompts(views[seat], taken),
            }
        )
    public = views[0]
    outcome = public.get("outcome")
    tiles = _tiles(step.action)
    if step.action == "hu" and outcome and outcome.get("win"):
        # "hu" names no tile: the one won on (a discard stays in its river), as the table's
        # result shows it
        tiles = [outcome["win"]]
    return {
        "step": step,
        "index": index,
        "last": len(steps) - 1,
        "seats": seats,
        "phase": public["phase"],
        "wall_live": public["wall"]["live"],
        "wall_reserve": public["wall"]["reserve"],
        "wild": public["wild"],
        # 海底捞月: the extra draws are face up (RULES.md 3.11.5), as the table shows them
        "haidi_shown": tiles_of(public["haidi"]["shown"]),
        "last_discard": public["last_discard"],
        "outcome": outcome,
        "action_label": _label(step.action) if step.action else "",
        "action_tiles": tiles,
        "by_label": _by_label(step.by),
    }


def ending(outcome: dict | None, action: str, names: list[str], stage: bool = False) -> str:
    """How the hand ended, said at its last step. A win, an escape and the operator's close
    name themselves in the move line; a drawn hand's last move is a discard or a pass, so
    the board never said the hand was drawn (流局)."""
    if not outcome or action == CALL_OFF:  # the move line says it was called off
        return ""
    kind = outcome["kind"]
    if kind == "draw":
        return gettext("Draw (流局): the wall is used up and nobody won.")
    if kind == "escape" and stage:  # 关卡 has no escape (RULES.md 5.1): the stake is lost
        return gettext("%(name)s left the hand: its stake is lost.") % {
            "name": names[outcome["escaper"]]
        }
    if kind == "escape":
        return gettext("%(name)s escaped (逃跑).") % {"name": names[outcome["escaper"]]}
    named = {"name": names[outcome["winner"]]}
    if kind == "self_draw":
        return gettext("%(name)s won, self-drawn (自摸).") % named
    named["loser"] = names[outcome["loser"]]
    if outcome.get("robbed_kong"):
        return gettext("%(name)s won by robbing %(loser)s's kong (抢杠).") % named
    return gettext("%(name)s won on %(loser)s's discard (点炮).") % named


def meld_shown(text: str) -> dict:
    verb, _, tiles = text.partition(" ")
    return {"label": VERB_LABELS.get(verb, verb), "tiles": tiles_of(tiles.replace(" ", ""))}


def _label(action: str) -> str:
    """The move's verb in the reader's language; its tiles are drawn (``_tiles``), as at
    the table, and not written in the engine's notation ("打出 6m")."""
    verb = action.partition(" ")[0]
    names = {
        "discard": gettext("Discard"),
        ESCAPE: gettext("Escape (逃跑)"),
        CALL_OFF: gettext("Called off by the site's operator (流局)"),
        # 关卡 offers (RULES.md 5.4)
        "exchange": gettext("Opening exchange (起始换牌)"),
        "cuo": gettext("Pick from the wall (搓牌)"),
        "swap": gettext("Swap (换牌)"),
    }
    return str(names.get(verb) or VERB_LABELS.get(verb, verb))


def _tiles(action: str | None) -> list[str]:
    return tiles_of((action or "").partition(" ")[2])


def _by_label(by: str) -> str:
    """Who made a move the player did not choose (tables.services' ``by``)."""
    return {
        "timeout": gettext("timed out"),
        "auto": gettext("auto-play"),
        "leave": gettext("left the table"),
        "disconnect": gettext("disconnected"),
        "ban": gettext("account suspended"),
    }.get(by, "")


def _prompts(seat_view: dict, taken: str) -> list[dict]:
    """The offers of a step. 游戏中换牌 is offered as every set of 3 concealed tiles to give
    back (hundreds): it is one line here, the triplet offered, as the table's panel shows
    it; the move that took it shows the three tiles given back."""
    prompts, swap = [], None
    for action in seat_view["legal_actions"]:
        if action.startswith(SWAP + " "):
            if swap is None:
                offer = (seat_view.get("stage") or {}).get("offer") or {}
                swap = {
                    "action": SWAP,
                    "label": _label(SWAP),
                    "tiles": tiles_of(offer.get("triplet", "")),
                    "taken": False,
                }
                prompts.append(swap)
            swap["taken"] = swap["taken"] or action == taken
        else:
            prompts.append(_prompt(action, taken))
    return prompts


def _prompt(action: str, taken: str) -> dict:
    return {**move_shown(action), "taken": action == taken}


def move_shown(action: str) -> dict:
    """A move as the replay shows it: its verb in the reader's language, its tiles drawn
    (the hand's review names its options so too, lobby.hand_reviews)."""
    return {"action": action, "label": _label(action), "tiles": _tiles(action)}
