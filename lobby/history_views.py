"""Match history pages: a player's finished hands, one hand's record, its replay (牌谱) and
the fairness check. Every page reads finished hands only: a hand still in play is a 404
(its page would show concealed tiles); the list of anyone's finished games is public, as
the hand pages are (shareable links)."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from catalogue.models import RoomTier, Ruleset
from catalogue.ruleset_messages import ruleset_name
from mahjong.engine.cli.verify import check as verify_check
from mahjong.engine.errors import EngineError
from mahjong.engine.rulesets import RULESETS
from mahjong.tables.presenters import tiles_of

from . import hand_reviews, history, replays

PAGE_SIZE = 50
# The fairness check's input is a seed, a commitment, two hands and a few overrides (a
# ruleset's whole fan table is about 1,500 characters, two levels deep); anything far
# beyond is refused before it is parsed.
VERIFY_FIELD_CHARS = 300
VERIFY_OVERRIDES_CHARS = 5_000
VERIFY_OVERRIDES_DEPTH = 4


@login_required
def mine(request):
    # The filters and the page travel along: /history/?result=won is "my games I won".
    url = reverse("history:player", args=[request.user.public_id])
    query = request.GET.urlencode()
    return redirect(f"{url}?{query}" if query else url)


def player(request, public_id):
    person = get_object_or_404(User, public_id=public_id, kind=User.Kind.PLAYER)
    chosen = {
        "ruleset": request.GET.get("ruleset", ""),
        "tier": request.GET.get("tier", ""),
        "result": request.GET.get("result", ""),
    }
    if chosen["result"] not in history.RESULTS:
        chosen["result"] = ""
    page = Paginator(history.finished_hands(person, **chosen), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    query = urlencode({k: v for k, v in chosen.items() if v})
    return render(
        request,
        "lobby/history/list.html",
        {
            "person": person,
            "own": request.user == person,
            "page": page,
            "rows": history.page_rows(page.object_list, person),
            "chosen": chosen,
            "query": query,
            "rulesets": Ruleset.objects.all(),
            "tiers": RoomTier.objects.all(),
            "results": [
                (history.WON, _("Won")),
                (history.LOST, _("Lost")),
                (history.DRAWN, _("Drawn")),
                (history.CALLED_OFF, _("Called off")),
            ],
            "no_room": history.NO_ROOM,
        },
    )


def _finished(table_id: str, number: int):
    hand = history.finished_hand(table_id, number)
    if hand is None:  # unknown, or still being played: both look the same from outside
        raise Http404(_("No finished hand here: a hand in play cannot be viewed."))
    return hand


def hand(request, table_id, number):
    record = _finished(table_id, number)
    line = history.verify_line(record)
    seats = history.seat_records(record)
    names = [s.seat.user.display_name for s in seats]
    return render(
        request,
        "lobby/history/hand.html",
        {
            "hand": record,
            "table": record.table,
            "result": record.result or {},
            "kind": history.ending_kind(record.result or {}),
            "decomposition": history.decomposition(record),
            "seats": seats,
            "reviews": hand_reviews.of_hand(record, names),
            "wild": history.wild_of(record),
            "won_doubling": history.won_doubling(record),
            "won_cap": history.won_cap(record),
            "movements": history.bean_movements(record),
            "verify_line": json.dumps(line, ensure_ascii=False),
            "verify_query": _verify_query(line),
            "contributions": history.contributions(record),
            "wall_seed": history.wall_seed_of(record),
        },
    )


def _verify_query(line: dict) -> str:
    deal = line["deal"]
    return urlencode(
        {
            "ruleset": line["ruleset"],
            "seed": line["seed"],
            "commitment": line["commitment"],
            "dealer": line["dealer"],
            "hand0": deal["hands"][0],
            "hand1": deal["hands"][1],
            "overrides": json.dumps(line.get("overrides") or {}),
            "stage": line.get("stage", ""),
            "stage_player": line.get("stage_player", ""),
            "contribution0": line.get("contributions", ("", ""))[0],
            "contribution1": line.get("contributions", ("", ""))[1],
        }
    )


def replay(request, table_id, number):
    record = _finished(table_id, number)
    try:
        steps = replays.rebuild(record)
    except replays.ReplayError as exc:
        return render(
            request,
            "lobby/history/replay_error.html",
            {"hand": record, "why": str(exc)},
            status=409,
        )
    index = replays.clamp(request.GET.get("step"), len(steps) - 1)
    seats = list(record.table.seats.select_related("user").order_by("index"))
    context = {
        "hand": record,
        "table": record.table,
        "players": [s.user for s in seats],
        **replays.step_context(steps, index),
    }
    names = [s.user.display_name for s in seats]
    context["reviews"] = reviews = hand_reviews.of_hand(record, names)
    decided = hand_reviews.at_step(reviews, index)
    for seat in context["seats"]:  # the decision the seat makes next, as the engine saw it
        seat["review"] = decided.get(seat["index"])
    step = steps[index]
    context["ending"] = replays.ending(
        context["outcome"], step.action, names, stage=bool(step.state.session.stage)
    )
    # Back past htmx's history cache asks again with HX-History-Restore-Request: the answer
    # replaces the body, so it is the whole page
    if request.htmx and not request.htmx.history_restore_request:
        return render(request, "lobby/history/replay.html#board", context)
    return render(request, "lobby/history/replay.html", context)


def verify(request):
    """The fairness check as a page: the same check as the CLI, on what was pasted."""
    form = {
        k: request.GET.get(k, "").strip()
        for k in (
            "ruleset",
            "seed",
            "commitment",
            "dealer",
            "hand0",
            "hand1",
            "overrides",
            "stage",
            "stage_player",
            "contribution0",
            "contribution1",
        )
    }
    verdict = error = None
    if form["seed"] or form["commitment"]:
        try:
            verdict = verify_check(_verify_request(form))
        except (EngineError, ValueError) as exc:
            # the engine explains in English (as in the admin); the lead-in is translated
            error = _("The check could not run: %(why)s") % {"why": exc}
    return render(
        request,
        "lobby/history/verify.html",
        {
            "form": form,
            "verdict": verdict,
            "error": error,
            "rulesets": [(slug, ruleset_name(slug)) for slug in RULESETS],
            "rebuilt_hands": [tiles_of(h) for h in verdict["rebuilt"]["hands"]] if verdict else [],
            "mismatches": [_mismatch(m) for m in verdict["mismatches"]] if verdict else [],
        },
    )


_MISMATCH = re.compile(r"deal: seat (\d)'s (hands|flowers) differ from the rebuilt deal")


def _mismatch(text: str) -> str:
    """One of the engine's verdict lines (English, as the CLI prints it) in the page's
    language; a line it does not know is shown as the engine wrote it."""
    if text.startswith("commitment:"):
        return _("The seed's SHA-256 is not the published commitment.")
    if text.startswith("deal: the indicator"):
        return _("The wild (财神) indicator differs from the rebuilt deal.")
    found = _MISMATCH.fullmatch(text)
    if found and found.group(2) == "hands":
        return _("Seat %(n)s's hand differs from the rebuilt deal.") % {"n": found.group(1)}
    if found:
        return _("Seat %(n)s's flowers differ from the rebuilt deal.") % {"n": found.group(1)}
    return text


def _verify_request(form: dict) -> dict:
    """The check's request from the form. What a person is likely to get wrong is refused
    here in the page's language; the engine's own refusals of the rest stay in English."""
    if any(len(value) > VERIFY_FIELD_CHARS for name, value in form.items() if name != "overrides"):
        raise ValueError(
            _("Each field holds at most %(n)d characters.") % {"n": VERIFY_FIELD_CHARS}
        )
    if form["ruleset"] not in RULESETS:
        raise ValueError(_("Choose one of the rulesets."))
    request = {"ruleset": form["ruleset"], "seed": form["seed"], "commitment": form["commitment"]}
    if form["dealer"] in ("0", "1"):
        request["dealer"] = int(form["dealer"])
    elif form["dealer"]:
        raise ValueError(_("The dealer is seat 0 or seat 1."))
    for field in ("stage", "stage_player"):
        if form[field]:
            if not (form[field].isascii() and form[field].isdigit()):  # "²".isdigit() too
                raise ValueError(_("The stage and its player are numbers."))
            request[field] = int(form[field])
    if request.get("stage", 0) > 4 or request.get("stage_player", 0) > 1:
        raise ValueError(_("The stage is 1 to 4 (0: none) and its player seat 0 or seat 1."))
    if form["hand0"] or form["hand1"]:
        request["deal"] = {"hands": [form["hand0"], form["hand1"]]}
    if form["contribution0"] or form["contribution1"]:
        request["contributions"] = [form["contribution0"], form["contribution1"]]
    if form["overrides"] and form["overrides"] != "{}":
        if (
            len(form["overrides"]) > VERIFY_OVERRIDES_CHARS
            or _nesting_depth(form["overrides"]) > VERIFY_OVERRIDES_DEPTH
        ):
            raise ValueError(_("The overrides are too long or nested too deeply."))
        try:
            overrides = json.loads(form["overrides"])
        except json.JSONDecodeError:
            overrides = None
        if not isinstance(overrides, dict):
            raise ValueError(_("The overrides must be a JSON object."))
        request["overrides"] = overrides
    return request


def _nesting_depth(text: str) -> int:
    """How deep brackets nest in JSON text, strings skipped. Measured before parsing: the
    parser recurses once a level, and 1,500 levels were a RecursionError (a 500)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif in_string and char == "\\":
            escaped = True
        elif char == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
