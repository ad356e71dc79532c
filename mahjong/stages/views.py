"""The stage screen (关卡) and its actions; the offer controls of a stage table.
Changes go through ``stages.services`` (the climb) and ``tables.services`` (the table)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from mahjong.engine import stage_run
from mahjong.engine.errors import EngineError
from mahjong.engine.stage import FEATURE_NAMES, STAGES
from mahjong.engine.stage_offers import CHOICES
from mahjong.engine.tiles import format_tiles, parse_tiles
from mahjong.tables import presenters
from mahjong.tables import services as tables
from mahjong.tables.models import Table

from . import services
from .models import StageSettings


def _feature_names(features) -> list[str]:
    zh = (get_language() or "zh-hans").startswith("zh")
    return [FEATURE_NAMES[f][0 if zh else 1] for f in features]


@login_required
@require_GET
def home(request):
    progress = services.progress_for(request.user)
    run = services.run_of(progress)
    table = services.live_table(progress)
    stages = [
        {
            "number": level.number,
            "pass_score": level.pass_score,
            "start_score": level.start_score,
            "stake": level.stake,
            "features": _feature_names(level.adds),
            "current": level.number == run.stage,
            "cleared": level.number <= progress.best_stage,
        }
        for level in STAGES
    ]
    return render(
        request,
        "stages/home.html",
        {
            "progress": progress,
            "run": run,
            "level": run.level,
            "features": _feature_names(run.level.features),
            "stages": stages,
            "table": table,
            "stake_beans": run.level.stake * StageSettings.load().beans_per_point,
            "streak": _live_streak(run),
            "rules": _rules(),
        },
    )


def _rules():
    """The stage ruleset's page in the rule book, while stage mode is on offer."""
    try:
        return services.stage_ruleset()
    except services.StageError:
        return None


def _live_streak(run) -> int:
    """The dealer streak (三连庄) still to be built on: a cleared, completed or failed stage
    goes on from a fresh start (stage_run.start), its streak 0, so "your next dealer win
    scores double" would be a promise the next hand does not keep."""
    return run.streak if run.status in (stage_run.READY, stage_run.IN_HAND) else 0


def _act_on_run(request, step):
    try:
        step(request.user)
    except services.StageError as exc:
        messages.error(request, str(exc))
    return redirect("stages:home")


@login_required
@require_POST
def play(request):
    try:
        table = services.play(request.user)
    except services.StageError as exc:
        messages.error(request, str(exc))
        return redirect("stages:home")
    return redirect(table.get_absolute_url())


@login_required
@require_POST
def advance(request):
    return _act_on_run(request, services.advance)


@login_required
@require_POST
def retry(request):
    return _act_on_run(request, services.retry)


@login_required
@require_POST
def restart(request):
    return _act_on_run(request, services.restart)


def _check_size(kind: str, chosen: list) -> None:
    """游戏中换牌 gives back exactly three tiles: said here in the page's language (the
    engine's refusal, "swap gives back exactly 3 tiles, not 2", is English and notation)."""
    size = CHOICES[kind]
    if size is not None and len(chosen) != size:
        raise tables.IllegalMove(
            _("Choose exactly %(size)s tiles to give back: you chose %(n)s. Nothing was done.")
            % {"size": size, "n": len(chosen)}
        )


@login_required
@require_POST
def offer(request, public_id):
    """An exchange or swap chosen with the offer panel's check boxes (stages/_offer.html):
    the tiles become one action, played like any other through tables.services.act."""
    table = get_object_or_404(Table, public_id=public_id)
    seat = tables.seat_of(table, request.user)
    if seat is None:
        raise PermissionDenied(_("This table is for other players."))
    kind = request.POST.get("kind", "")
    notice = ""
    try:
        if kind not in CHOICES:
            raise tables.IllegalMove(_("Not an offer."))
        try:
            chosen = [t for text in request.POST.getlist("tile") for t in parse_tiles(text)]
        except EngineError:
            chosen = []
        if not chosen:
            raise tables.IllegalMove(_("Choose the tiles first."))
        _check_size(kind, chosen)
        action = f"{kind} {format_tiles(sorted(chosen))}"
        tables.act(table, request.user, action, request.POST.get("version", ""))
    except tables.TableError as exc:
        notice = str(exc)
    if not request.htmx:
        if notice:
            messages.error(request, notice)
        return redirect(table.get_absolute_url())
    return HttpResponse(presenters.fragments(table, seat.index, notice=notice))
