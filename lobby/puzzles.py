"""The puzzle pages (何切, issue 35): a position from a real finished hand
(mahjong.reviews.puzzles), "what would you discard?", one button per tile of the hand;
a POST reveals every option's measures and the best one, and records a logged-in
player's first answer. The page before an answer holds no measure and no best mark."""

from __future__ import annotations

from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from mahjong.reviews import puzzles
from mahjong.reviews.models import Puzzle, PuzzleAttempt
from mahjong.tables.presenters import tiles_of

from .hand_reviews import seats_shown
from .replays import meld_shown, move_shown

LATEST = 30  # the puzzle list's length


def index(request):
    latest = Puzzle.objects.select_related("hand__table__ruleset").order_by("-pk")[:LATEST]
    return render(
        request,
        "reviews/puzzles.html",
        {"daily": puzzles.daily(timezone.localdate()), "latest": latest},
    )


@require_http_methods(["GET", "POST"])
def puzzle(request, code):
    p = get_object_or_404(Puzzle.objects.select_related("hand__table__ruleset"), code=code)
    attempt = None
    if request.user.is_authenticated:
        attempt = PuzzleAttempt.objects.filter(user=request.user, puzzle=p).first()
    choice = attempt.choice if attempt else None
    if request.method == "POST":
        try:
            _correct, attempt = puzzles.answer(p, request.user, request.POST.get("choice", ""))
        except puzzles.NotOffered:
            return HttpResponseBadRequest("not one of the puzzle's options")
        # a second answer changes nothing: the first one counts
        choice = attempt.choice if attempt else request.POST["choice"]
    context = {"puzzle": p, **_position(p), "answered": choice is not None}
    if choice is not None:
        context.update(_revealed(p, choice, attempt))
    if request.htmx and request.method == "POST":
        return render(request, "reviews/puzzle.html#answer", context)
    return render(request, "reviews/puzzle.html", context)


def _position(p: Puzzle) -> dict:
    """The position as its seat saw it: its own hand and drawn tile, the opponent's count."""
    seen = p.position
    mine, theirs = seen["seats"][p.seat], seen["seats"][1 - p.seat]
    return {
        "ruleset": p.hand.table.ruleset,
        "wild": seen["wild"],
        "indicator": seen["indicator"],
        "wall_live": seen["wall"]["live"],
        "round_wind": seen["round_wind"],
        "me": {
            **_seat(mine),
            "concealed": tiles_of(mine["concealed"]),
            "notation": mine["concealed"],
            "drawn": mine["drawn"],
        },
        "them": {**_seat(theirs), "count": theirs["concealed_count"]},
        "me_dealer": seen["dealer"] == p.seat,
        "buttons": [{"action": o["action"], "tile": o["tile"]} for o in p.options],
    }


def _seat(data: dict) -> dict:
    return {
        "melds": [meld_shown(m) for m in data["melds"]],  # a hidden kong: no tiles
        "flowers": tiles_of(data["flowers"]),
        "river": tiles_of(data["river"]),
        "ting": data["ting"],
    }


def _revealed(p: Puzzle, choice: str, attempt: PuzzleAttempt | None) -> dict:
    hand = p.hand
    replay = ""
    if seats_shown(hand):  # the hand's record is public: its replay at the puzzle's step
        replay = reverse("history:replay", args=[hand.table.public_id, hand.number])
        replay = f"{replay}?step={p.step}"
    return {
        "choice": choice,
        "correct": choice == p.answer,
        "recorded": attempt is not None,
        "answer": move_shown(p.answer),
        "options": [
            {
                **move_shown(o["action"]),
                "shanten": o["shanten"],
                "acceptance": o["acceptance"],
                "improving": tiles_of(o["tiles"]),
                "chosen": o["action"] == choice,
                "bot": o["action"] == p.bot,
                "best": o["action"] == p.answer,
            }
            for o in p.options
        ],
        "replay_url": replay,
        "played": move_shown(p.chosen),
    }
