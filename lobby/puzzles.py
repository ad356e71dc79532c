"""The puzzle pages (何切, issue 35): a position from a real finished hand
(mahjong.reviews.puzzles), "what would you discard?", one button per tile of the hand;
a POST reveals every option's measures and the best one, and records a logged-in
player's first answer. The page before an answer holds no measure and no best mark.

The list pages through every puzzle, newest first, filtered by ruleset; a logged-in
player sees each marked solved, missed or new (their first answer, read in the page's
own query) and may list only those not answered yet. It reads what a row shows (the
code, the ruleset, the date and the seat's hand) and never the options or the answer."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from catalogue.ruleset_messages import ruleset_name
from mahjong.engine.rulesets import RULESETS
from mahjong.reviews import puzzles
from mahjong.reviews.models import Puzzle, PuzzleAttempt
from mahjong.tables.presenters import tiles_of

from .hand_reviews import seats_shown
from .replays import meld_shown, move_shown

PAGE_SIZE = 30  # puzzles a page of the list
FULL_HAND = 14  # a hand's tiles with the drawn one, as the list sizes them
# What a row of the list reads: never the options (their measures) nor the answer
LISTED = ("code", "ruleset", "seat", "position", "created_at")
# A logged-in player's mark on a row, from their first answer's verdict (None: none yet)
SOLVED, MISSED, NEW = "solved", "missed", "new"
MARKS = {True: SOLVED, False: MISSED, None: NEW}


def index(request):
    player = request.user if request.user.is_authenticated else None
    rulesets = _rulesets()
    names = dict(rulesets)
    chosen = {
        "ruleset": request.GET.get("ruleset", ""),
        "unsolved": player is not None and request.GET.get("unsolved") == "1",
    }
    unknown = bool(chosen["ruleset"]) and chosen["ruleset"] not in names
    listed = _listed(player, **chosen)
    if unknown:
        listed = listed.none()  # no puzzle of it; never sent to SQL (a NUL would be a 500)
    # a page past the last is the last, one not a number the first (as the history's)
    page = Paginator(listed, PAGE_SIZE).get_page(request.GET.get("page"))
    query = urlencode({k: "1" if v is True else v for k, v in chosen.items() if v})
    return render(
        request,
        "reviews/puzzles.html",
        {
            "daily": puzzles.daily(timezone.localdate()),
            "page": page,
            "pages": _page_links(page),
            "rows": [_row(p, names, marked=player is not None) for p in page.object_list],
            "rulesets": rulesets,
            "chosen": chosen,
            "unknown_ruleset": unknown,
            "query": query,
            "marked": player is not None,
        },
    )


def _rulesets() -> list[tuple[str, str]]:
    """The rulesets that have puzzles, (slug, name in the page's language), in the
    engine's order; a slug the engine no longer knows is shown as it is."""
    slugs = set(Puzzle.objects.order_by().values_list("ruleset", flat=True).distinct())
    order = list(RULESETS)
    known = [s for s in order if s in slugs]
    return [(s, ruleset_name(s)) for s in known + sorted(slugs - set(known))]


def _listed(player, *, ruleset: str, unsolved: bool) -> QuerySet:
    """The list's puzzles, newest first; with a player, each with ``first_correct``:
    their first answer's verdict (None: not answered), from the same query."""
    listed = Puzzle.objects.only(*LISTED).order_by("-pk")
    if ruleset:
        listed = listed.filter(ruleset=ruleset)
    if player is None:
        return listed
    mine = PuzzleAttempt.objects.filter(user=player, puzzle=OuterRef("pk"))
    listed = listed.annotate(first_correct=Subquery(mine.values("correct")[:1]))
    return listed.filter(~Exists(mine)) if unsolved else listed


def _row(p: Puzzle, names: dict[str, str], *, marked: bool) -> dict:
    mine = p.position["seats"][p.seat]  # the seat's own hand: what its page shows first
    concealed = tiles_of(mine["concealed"])
    return {
        "puzzle": p,
        "ruleset": names.get(p.ruleset, p.ruleset),
        "concealed": concealed,
        "drawn": mine["drawn"],
        # the tiles a full hand shows (17 in wenzhou): one with melds keeps their size
        "tile_count": max(len(concealed) + bool(mine["drawn"]), FULL_HAND),
        "wild": p.position["wild"],
        "mark": MARKS[p.first_correct] if marked else "",  # _listed's annotation
    }


def _page_links(page) -> list[dict]:
    """The pager's numbers: the first and last pages, the current one and its
    neighbours, a gap (None) where pages are left out."""
    return [
        {"number": n if isinstance(n, int) else None, "current": n == page.number}
        for n in page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1)
    ]


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
