"""Lobby pages and their HTMX fragments. Each page is one template whose partials are
also served alone to HTMX requests (`template.html#partial`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import ranks, wallet
from accounts.models import EconomySettings, RankLevel
from catalogue.models import SOLO_ENGINE_RULESETS, Leaderboard, RoomTier, Ruleset, relief_threshold
from mahjong.assets import rooms as room_art
from mahjong.engine.bots import LEVEL_SLUGS, LEVELS
from mahjong.reviews import puzzles
from mahjong.tables import services as tables
from mahjong.tables import spectators
from mahjong.tables.models import Hand, Match, Table

from . import leaderboards, matchmaking, rooms
from .forms import JoinByCodeForm, PrivateRoomForm
from .models import PrivateRoom, QueueTicket

BOT_RULESET = "classic"


def _redirect(request, url):
    """A full-page navigation, for plain and HTMX requests alike."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _tiers_context(request):
    """The room cards: three queries for any number of rooms (the rooms, who waits, who
    plays). Each room shows the art of its place among the open ones, in the lobby's order
    (the operator's, cheapest first by default): a room the operator adds gets art too."""
    tiers = list(RoomTier.objects.filter(is_active=True).select_related("ruleset"))
    counts = matchmaking.waiting_counts()
    playing = matchmaking.playing_counts()
    beans = request.user.beans if request.user.is_authenticated else None
    for place, tier in enumerate(tiers, start=1):
        tier.waiting = counts.get(tier.pk, 0)
        tier.playing = playing.get(tier.pk, 0)
        tier.art = room_art.path(place)
        tier.refusal = tier.entry_refusal(beans) if beans is not None else None
    return {
        "tiers": tiers,
        "columns": {"mid": columns(len(tiers), 3), "wide": columns(len(tiers), 5)},
    }


def columns(cards: int, widest: int) -> int:
    """How many columns lay out ``cards`` room cards, at most ``widest``: the most that
    leave no lone card on the last row (five rooms: one row of five, or three and two,
    never four and one)."""
    for n in range(min(widest, cards), 1, -1):
        if cards % n != 1:
            return n
    return 1


def _relief_context(request):
    if not request.user.is_authenticated:
        return {}
    refusal = wallet.relief_status(request.user, below=relief_threshold())
    amount = EconomySettings.load().relief_amount
    # 0 is the operator's switch: nothing to offer, and the claim would be refused
    return {"relief_available": refusal is None and amount > 0, "relief_amount": amount}


def bot_levels() -> list[dict]:
    """The bot levels for a picker, weakest first, named in the page's language."""
    en = get_language() == "en"
    return [
        {
            "slug": lv.slug,
            "name": lv.name_en if en else lv.name_zh,
            "about": lv.about_en if en else lv.about_zh,
        }
        for lv in LEVELS
    ]


@require_GET
def home(request):
    if request.htmx and request.htmx.target == "tiers":  # the 5-second refresh of the rooms
        return render(request, "lobby/home.html#tiers", _tiers_context(request))
    context = {
        **_tiers_context(request),
        **_relief_context(request),
        "join_form": JoinByCodeForm(),
        "bot_levels": bot_levels(),
        "bot_rulesets": Ruleset.objects.filter(is_active=True).exclude(
            engine_slug__in=SOLO_ENGINE_RULESETS
        ),
        "daily_puzzle": puzzles.daily(timezone.localdate()),
    }
    if request.user.is_authenticated:
        context["table_in_play"] = tables.table_in_play(request.user)
        context["waiting_ticket"] = (
            QueueTicket.objects.filter(player=request.user, state=QueueTicket.State.WAITING)
            .select_related("tier")
            .first()
        )
    else:  # the sign-up button says how many beans it gives; none when the grant is 0
        context["signup_grant"] = EconomySettings.load().signup_grant
    return render(request, "lobby/home.html", context)


@login_required
@require_POST
def claim_relief(request):
    try:
        posting = wallet.grant_relief(request.user, below=relief_threshold())
    except wallet.ReliefRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("You received %(beans)s beans of relief. Good luck!")
            % {"beans": f"{posting.amount_for(request.user):,}"},
        )
    return _redirect(request, "/")


# ----- play vs a bot ----------------------------------------------------------------------


@login_required
@require_POST
def play_bot(request):
    """A table against the bot of the chosen level; no stakes, unranked."""
    from accounts.builtin import bot_for

    level = request.POST.get("level", "")
    if level not in LEVEL_SLUGS:
        messages.error(request, _("Choose the level of the bot."))
        return _redirect(request, "/")
    ruleset = get_object_or_404(
        Ruleset.objects.filter(is_active=True).exclude(engine_slug__in=SOLO_ENGINE_RULESETS),
        slug=request.POST.get("ruleset") or BOT_RULESET,
    )
    refusal = tables.in_play_refusal(request.user)
    if refusal:
        messages.error(request, refusal)
        return _redirect(request, "/")
    try:  # checked again as the table opens: another request may have seated them since
        table = tables.open_table(ruleset, [request.user, bot_for(level)])
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return _redirect(request, "/")
    return _redirect(request, table.get_absolute_url())


# ----- quick match -----------------------------------------------------------------------


@login_required
@require_POST
def quick_join(request, tier_slug):
    tier = get_object_or_404(RoomTier.objects.select_related("ruleset"), slug=tier_slug)
    try:
        ticket = matchmaking.join(request.user, tier)
    except matchmaking.EntryRefused as exc:
        messages.error(request, str(exc))
        return _redirect(request, "/")
    if ticket.state == QueueTicket.State.MATCHED:
        return _redirect(request, ticket.match.get_absolute_url())
    return _redirect(request, ticket.get_absolute_url())


def _own_ticket(request, public_id) -> QueueTicket:
    """The caller's ticket, or 404 (another player's ticket id reveals nothing)."""
    return get_object_or_404(
        QueueTicket.objects.select_related("tier", "ruleset", "match", "player"),
        public_id=public_id,
        player=request.user,
    )


@login_required
@require_GET
def queue(request, public_id):
    ticket = matchmaking.poll(_own_ticket(request, public_id))
    if ticket.state == QueueTicket.State.MATCHED:
        return _redirect(request, ticket.match.get_absolute_url())
    if ticket.state == QueueTicket.State.CANCELLED:
        # The room now refuses the player (the operator closed it, or its entry range moved
        # past their beans): its own refusal says why. Else the page stopped polling (a tab
        # in the background is slowed to a poll a minute) or the player queued elsewhere.
        refusal = ticket.tier.entry_refusal(request.user.beans)
        if refusal:
            messages.error(request, refusal)
        else:
            messages.info(
                request,
                _("You are no longer waiting in %(room)s. Choose Quick match to wait again.")
                % {"room": ticket.tier.display_name},
            )
        return _redirect(request, "/")
    waited = int((timezone.now() - ticket.created_at).total_seconds())
    bot_in = matchmaking.bot_fill_due(ticket)
    context = {
        "ticket": ticket,
        # the others: the player's own ticket is one of the room's waiting ones
        "others": max(matchmaking.waiting_counts().get(ticket.tier_id, 0) - 1, 0),
        "waited": f"{waited // 60}:{waited % 60:02d}",
        "bot_in": max(round(bot_in), 1) if bot_in is not None else None,
    }
    if request.htmx:
        # The poll names the count its page shows: the live region is sent only when it
        # changed, so a screen reader does not read the same words every 2 seconds.
        context["others_changed"] = request.GET.get("others") != str(context["others"])
        return render(request, "lobby/queue.html#poll", context)
    return render(request, "lobby/queue.html", context)


@login_required
@require_POST
def queue_cancel(request, public_id):
    ticket = _own_ticket(request, public_id)
    if matchmaking.cancel(ticket):
        messages.info(request, _("You left the queue."))
        return _redirect(request, "/")
    ticket.refresh_from_db()
    if ticket.match_id:  # the partner arrived first: go to the match rather than lose it
        return _redirect(request, ticket.match.get_absolute_url())
    return _redirect(request, "/")


@login_required
@require_GET
def match(request, public_id):
    found = get_object_or_404(
        Match.objects.select_related("tier", "ruleset", "player_one", "player_two"),
        public_id=public_id,
    )
    if found.seat_of(request.user) is None:
        raise PermissionDenied(_("This match is between other players."))
    levels = list(RankLevel.objects.order_by("threshold"))
    seats = [
        {"player": p, "rank": ranks.progress(p.rank_score, levels), "me": p.pk == request.user.pk}
        for p in (found.player_one, found.player_two)
    ]
    return render(
        request,
        "lobby/match.html",
        {
            "match": found,
            "seats": seats,
            "engine": found.ruleset.engine(),
            "last_hand": _last_hand(found),
        },
    )


def _last_hand(found: Match):
    """A finished match's last hand, whose record the page links to: its table is closed,
    so there is nothing left to sit down at (every hand of a closed table has ended)."""
    if found.state != Match.State.FINISHED:
        return None
    hands = Hand.objects.filter(table__match=found).select_related("table")
    return hands.order_by("-number").first()


@login_required
@require_GET
def sit_down(request, public_id):
    """The table of a match (quick match or private room), opened by whoever comes first."""
    match = get_object_or_404(Match, public_id=public_id)
    if match.seat_of(request.user) is None:
        raise PermissionDenied(_("This match is between other players."))
    table = Table.objects.filter(match=match).first()
    if table is None:
        try:
            with transaction.atomic():
                locked = Match.objects.select_for_update().get(pk=match.pk)
                table = Table.objects.filter(match=match).first()
                if table is None and matchmaking.is_unseated(locked):
                    Match.objects.filter(pk=match.pk).update(state=Match.State.ABANDONED)
                    return redirect(match.get_absolute_url())  # it says the match is off
                table = table or tables.open_table(
                    match.ruleset,
                    [match.player_one, match.player_two],
                    tier=match.tier,
                    match=match,
                    base_points=match.base_points,
                    beans_per_point=match.beans_per_point,
                )
                Match.objects.filter(pk=match.pk).update(state=Match.State.PLAYING)
        except IntegrityError:
            table = Table.objects.get(match=match)
        except tables.TableError as exc:  # a player is at another table's hand
            messages.error(request, str(exc))
            return redirect("/")
    return redirect(table.get_absolute_url())


# ----- private rooms ---------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def room_new(request):
    form = PrivateRoomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            room = rooms.create(
                request.user, form.cleaned_data["ruleset"], form.cleaned_data["base_points"]
            )
        except rooms.RoomError as exc:
            form.add_error(None, str(exc))
        else:
            return _redirect(request, room.get_absolute_url())
    return render(request, "lobby/room_new.html", {"form": form})


@require_GET
def room(request, code):
    found = get_object_or_404(
        PrivateRoom.objects.select_related("host", "ruleset", "match"),
        code=rooms.normalize_code(code),
    )
    is_host = request.user.is_authenticated and request.user.pk == found.host_id
    in_match = (
        found.match
        and request.user.is_authenticated
        and found.match.seat_of(request.user) is not None
    )
    if found.state == PrivateRoom.State.MATCHED and in_match:
        return _redirect(request, found.match.get_absolute_url())
    context = {
        "room": found,
        "is_host": is_host,
        "bot_levels": bot_levels() if is_host else [],
        "share_url": request.build_absolute_uri(found.get_absolute_url()),
    }
    poll = request.htmx and not request.htmx.history_restore_request
    if poll and found.state == PrivateRoom.State.OPEN:
        # The host's poll, nothing changed: no swap. Re-rendering the share link every
        # 2 seconds dropped its selection (and the focus) while the host was copying it.
        return HttpResponse(status=204)
    if poll:
        return render(request, "lobby/room.html#room_status", context)
    return render(request, "lobby/room.html", context)


@login_required
@require_POST
def room_join(request, code):
    found = get_object_or_404(PrivateRoom, code=rooms.normalize_code(code))
    try:
        joined = rooms.join(found, request.user)
    except rooms.RoomError as exc:
        messages.error(request, str(exc))
        return _redirect(request, found.get_absolute_url())
    return _redirect(request, joined.get_absolute_url())


@login_required
@require_POST
def room_bot(request, code):
    """The host fills the other seat with a bot of the chosen level."""
    found = get_object_or_404(PrivateRoom, code=rooms.normalize_code(code))
    try:
        match = rooms.fill_with_bot(found, request.user, request.POST.get("level", ""))
    except rooms.RoomError as exc:
        messages.error(request, str(exc))
        return _redirect(request, found.get_absolute_url())
    return _redirect(request, match.get_absolute_url())


@login_required
@require_POST
def room_spectators(request, code):
    """The host opens or closes the room's table to spectators (closing ends their sockets)."""
    found = get_object_or_404(PrivateRoom, code=rooms.normalize_code(code))
    if request.user.pk != found.host_id:
        raise PermissionDenied(_("Only the host may change this."))
    found.allow_spectators = request.POST.get("allow") == "1"
    found.save(update_fields=["allow_spectators"])
    table = getattr(found.match, "table", None) if found.match_id else None
    if table is not None and not found.allow_spectators:
        spectators.close_watchers(table)
    if request.htmx:
        return render(request, "lobby/_spectators_switch.html", {"room": found})
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = found.get_absolute_url()
    return redirect(back)


@login_required
@require_POST
def room_close(request, code):
    found = get_object_or_404(PrivateRoom, code=rooms.normalize_code(code))
    try:
        rooms.close(found, request.user)
    except rooms.RoomError as exc:
        messages.error(request, str(exc))
        return _redirect(request, found.get_absolute_url())
    messages.info(request, _("Room %(code)s is closed.") % {"code": found.code})
    return _redirect(request, "/")


@require_POST
def room_find(request):
    form = JoinByCodeForm(request.POST, user=request.user)
    if form.is_valid():
        return _redirect(request, form.room.get_absolute_url())
    if request.htmx:
        return render(request, "lobby/home.html#join_code", {"join_form": form})
    messages.error(request, " ".join(form.errors.get("code", [])))
    return redirect("lobby:home")


# ----- leaderboards ----------------------------------------------------------------------


@require_GET
def leaderboard_list(request):
    boards = Leaderboard.objects.filter(visible=True).select_related("tier", "ruleset")
    levels = list(RankLevel.objects.order_by("threshold"))
    mine = (
        ranks.progress(request.user.rank_score, levels) if request.user.is_authenticated else None
    )
    return render(
        request,
        "lobby/leaderboards.html",
        {
            "boards": leaderboards.boards(boards),
            "levels": levels,
            "my_rank": mine,
        },
    )


def healthz(request):
    """For a load balancer: the process is up and answers (no database hit)."""
    return HttpResponse("ok", content_type="text/plain")
