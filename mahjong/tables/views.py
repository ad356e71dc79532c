"""The table page and its HTMX endpoints. Every view starts with ``_table_for`` (the
table and the caller's seat, or a refusal); changes go through ``services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

# sessions: imported for its log-out receiver, which closes that session's sockets
from . import (  # noqa: F401
    broadcast,
    emotes,
    hooks,
    presenters,
    ratelimit,
    services,
    sessions,
    spectators,
    watchers,
)
from .models import Seat, Table


def _table_for(request, public_id) -> tuple[Table, Seat]:
    table = get_object_or_404(Table.objects.select_related("ruleset", "tier"), public_id=public_id)
    seat = services.seat_of(table, request.user)
    if seat is None:
        raise PermissionDenied(_("This table is for other players."))
    return table, seat


def _result_hand(request) -> int | None:
    """The number of the hand whose result panel a click was made on (``hx-vals``)."""
    after = request.POST.get("hand", "")
    return int(after) if after.isdigit() else None


def _fragments(table, seat, notice="") -> HttpResponse:
    return HttpResponse(presenters.fragments(table, seat.index, notice=notice))


def _refused(request, message: str) -> HttpResponse:
    """A page refused to someone who merely followed a link: the 403 page with the reason,
    without raising PermissionDenied, which logs a traceback for every such visit."""
    return render(request, "403.html", {"exception": message}, status=403)


@login_required
@require_GET
def table(request, public_id):
    table = get_object_or_404(Table.objects.select_related("ruleset", "tier"), public_id=public_id)
    seat = services.seat_of(table, request.user)
    if seat is None:  # a link to a table someone else plays: watch it, if the table allows
        return redirect("tables:watch", public_id=table.public_id)
    context = presenters.context_for(table, seat.index)
    for extra in hooks.answers(hooks.table_page_shown, table=table, user=request.user):
        context.update(extra)
    context["watchers"] = watchers.count(table.pk)
    return render(request, "tables/table.html", context)


@login_required
@require_GET
def fragments(request, public_id):
    table, seat = _table_for(request, public_id)
    return _fragments(table, seat)


@login_required
@require_POST
def act(request, public_id):
    table, seat = _table_for(request, public_id)
    notice = ""
    try:
        if not ratelimit.allow(request.user.pk):
            raise services.TableError(_("Slow down: too many messages. Nothing was done."))
        done = services.act(
            table, request.user, request.POST.get("action", ""), request.POST.get("version", "")
        )
    except services.TableError as exc:
        done, notice = None, str(exc)
    if not request.htmx:
        if notice:
            messages.error(request, notice)
        return redirect(table.get_absolute_url())
    # The page posts a move only while its socket is closed (table.js sends it over the
    # socket otherwise): the answer carries the new view, from the move's own reads.
    html = done and presenters.fragments_after_move(done, seat.index)
    return HttpResponse(html) if html else _fragments(table, seat, notice)


@login_required
@require_POST
def next_hand(request, public_id):
    table, seat = _table_for(request, public_id)
    notice = ""
    try:
        services.ready_next(
            table, request.user, _result_hand(request), request.POST.get("contribution", "")
        )
    except services.TableError as exc:
        notice = str(exc)
    table.refresh_from_db()
    return _fragments(table, seat, notice)


@login_required
@require_POST
def back(request, public_id):
    table, seat = _table_for(request, public_id)
    services.back(table, request.user)
    return _fragments(table, seat)


@login_required
@require_POST
def leave(request, public_id):
    table, seat = _table_for(request, public_id)
    # 关卡: no escape penalty there (RULES.md 5.1), the hand's stake is lost; the climb
    # goes on from the stage screen, not the lobby
    stage = table.ruleset.engine_slug == "stage"
    try:
        outcome = services.leave(table, request.user, _result_hand(request))
    except services.TableError as exc:
        if not request.htmx:
            messages.error(request, str(exc))
            return redirect(table.get_absolute_url())
        return _fragments(table, seat, str(exc))
    # 关卡: leaving loses the hand's stake and nothing more, news rather than a warning
    if outcome == "escaped" and stage:
        messages.info(request, _("You left during a hand: its stake is lost."))
    elif outcome == "escaped":
        messages.warning(request, _("You left during a hand: that counts as an escape."))
    url = reverse("stages:home") if stage else reverse("lobby:home")
    if not stage and request.POST.get("to") == "bot":  # the result's "Play vs a bot"
        url += "#play-bot"
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def emote(request, public_id):
    """A preset emote to the table (tables.emotes)."""
    table = get_object_or_404(Table, public_id=public_id)
    seat = services.seat_of(table, request.user)
    if seat is None:
        return HttpResponse(_("This table is for other players."), status=403)
    if request.user.is_muted:  # an operator's mute silences the table's emotes too
        notice = presenters.notice_fragment(_("You are muted: emotes are off for now."))
        return HttpResponse(notice, status=403)
    emote = request.POST.get("emote", "")
    if emote not in emotes.PRESETS:
        return HttpResponse(_("No such emote."), status=400)
    if not cache.add(f"emote:{table.public_id}:{seat.index}", 1, timeout=emotes.COOLDOWN):
        # the page shows it as the table's notice (table.js swaps this refusal in)
        notice = presenters.notice_fragment(_("One emote every few seconds, please."))
        return HttpResponse(notice, status=429)
    broadcast.group_send(table.group, {"type": "table_emote", "seat": seat.index, "emote": emote})
    # the sender's own page shows what went (htmx swaps it out of band): without it, the
    # popover closed and nothing said the emote was sent
    return HttpResponse(emotes.render(emote, own=True))


@login_required
@require_GET
def watch(request, public_id):
    """A spectator's page: the public view, live. A player of the table goes to their seat."""
    table = get_object_or_404(Table.objects.select_related("ruleset", "match"), public_id=public_id)
    if services.seat_of(table, request.user) is not None:
        return redirect(table.get_absolute_url())
    refusal = spectators.refusal(table)
    if refusal:
        return _refused(request, refusal)
    return render(request, "tables/watch.html", spectators.context_for(table))


@login_required
@require_GET
def live(request):
    """The tables being played now, to pick one to watch."""
    return render(request, "tables/live.html", {"tables": spectators.live_tables()})
