"""Lobby, quick match, private rooms and leaderboards through the test client."""

import re

import pytest
from django.urls import path, reverse

from accounts.models import LedgerEntry
from catalogue.models import RoomTier
from lobby.models import PrivateRoom, QueueTicket
from mahjong.tables.models import Match

pytestmark = pytest.mark.django_db


def quick(c, tier="novice", **kw):
    return c.post(reverse("lobby:quick_join", args=[tier]), **kw)


def test_the_lobby_lists_the_five_rooms_with_their_stakes(builtin, client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for name in ["新手场", "普通场", "初级场", "中级场", "高级场"]:
        assert name in html
    assert "1,000 – 60,000" in html and "200,000 – 2,000,000,000" in html


def test_the_rooms_fragment_is_served_alone_to_htmx(builtin, client, htmx):
    response = client.get("/", headers=htmx(target="tiers"))
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="tiers"') and "<html" not in html


def test_a_room_the_player_cannot_afford_is_refused_with_a_clear_message(
    make_player, builtin, client_of
):
    poor = make_player("poor", beans=4_000)
    c = client_of(poor)
    home = c.get("/").content.decode()
    assert "needs at least 5,000 beans; you have 4,000" in home or "至少需要 5,000" in home
    response = quick(c, "normal", follow=True)
    assert not QueueTicket.objects.filter(player=poor).exists()
    messages = [str(m) for m in response.context["messages"]]
    assert any("5,000" in m and "4,000" in m for m in messages)


def test_a_player_too_rich_for_the_novice_room_is_sent_up(make_player, builtin, client_of):
    rich = make_player("rich", beans=70_000)
    response = quick(client_of(rich), "novice", follow=True)
    assert any("60,000" in str(m) for m in response.context["messages"])
    assert not QueueTicket.objects.filter(player=rich).exists()


def test_two_players_in_the_same_room_are_paired_into_a_match(alice, bob, client_of, htmx):
    ca, cb = client_of(alice), client_of(bob)
    response = quick(ca)
    ticket = QueueTicket.objects.get(player=alice)
    assert response.url == ticket.get_absolute_url()
    status = ca.get(ticket.get_absolute_url(), headers=htmx())
    # alone in the room: nobody else is counted, and the time waited reads m:ss
    assert status.status_code == 200 and 'data-others="0"' in status.content.decode()
    assert "本场次暂时没有其他人在等待" in status.content.decode()
    assert re.search(r"已等待 0:0\d", status.content.decode())

    response = quick(cb, headers=htmx())  # HTMX: navigate with HX-Redirect
    match = Match.objects.get()
    assert response["HX-Redirect"] == match.get_absolute_url()
    assert {match.player_one, match.player_two} == {alice, bob}
    assert match.player_one == alice  # who waited longer sits first
    assert (match.tier.slug, match.ruleset.slug, match.beans_per_point, match.ranked) == (
        "novice",
        "classic",
        50,
        True,
    )

    # Alice's waiting page learns it on its next poll.
    poll = ca.get(ticket.get_absolute_url(), headers=htmx())
    assert poll["HX-Redirect"] == match.get_absolute_url()
    page = ca.get(match.get_absolute_url())
    assert (
        page.status_code == 200
        and "Alice" in page.content.decode()
        and "Bob" in page.content.decode()
    )


def test_players_in_different_rooms_are_not_paired(alice, make_player, client_of):
    rich = make_player("rich", beans=60_000)
    quick(client_of(alice), "novice")
    quick(client_of(rich), "intermediate")
    assert not Match.objects.exists()
    assert QueueTicket.objects.filter(state="waiting").count() == 2


def test_a_stale_waiting_player_is_not_paired(alice, bob, client_of, settings):
    import datetime

    from django.utils import timezone

    quick(client_of(alice))
    QueueTicket.objects.update(last_seen=timezone.now() - datetime.timedelta(minutes=5))
    quick(client_of(bob))
    assert not Match.objects.exists()


def test_two_players_who_missed_each_other_are_paired_on_the_next_poll(alice, bob, client_of, htmx):
    from lobby.matchmaking import poll

    # Both tickets written without a pairing attempt, as when two joins race.
    ta = QueueTicket.objects.create(
        player=alice,
        tier=RoomTier.objects.get(slug="novice"),
        ruleset=RoomTier.objects.get(slug="novice").ruleset,
    )
    QueueTicket.objects.create(player=bob, tier=ta.tier, ruleset=ta.ruleset)
    response = client_of(alice).get(ta.get_absolute_url(), headers=htmx())
    assert response["HX-Redirect"] == Match.objects.get().get_absolute_url()
    assert poll(ta).state == "matched"


def test_waiting_count_and_cancel(alice, client_of, htmx):
    c = client_of(alice)
    quick(c)
    ticket = QueueTicket.objects.get(player=alice)
    home = c.get("/", headers=htmx(target="tiers"))
    assert '<dd class="waiting now">1</dd>' in home.content.decode()
    response = c.post(reverse("lobby:queue_cancel", args=[ticket.public_id]))
    assert response.status_code == 302
    ticket.refresh_from_db()
    assert ticket.state == "cancelled"
    assert '<dd class="waiting">0</dd>' in c.get("/", headers=htmx(target="tiers")).content.decode()


def test_a_waiting_page_whose_ticket_expired_says_so_in_the_lobby(alice, client_of, htmx):
    """A waiting page left in a background tab polls once a minute: its ticket expires,
    and its next poll sent the player to the lobby without a word."""
    from lobby.tasks import expire_ticket_if_stale

    c = client_of(alice)
    quick(c)
    ticket = QueueTicket.objects.get(player=alice)
    QueueTicket.objects.filter(pk=ticket.pk).update(last_seen=ticket.created_at.replace(year=2000))
    assert expire_ticket_if_stale(ticket.pk) == "expired"
    response = c.get(ticket.get_absolute_url(), headers=htmx())
    assert response["HX-Redirect"] == "/"
    lobby = c.get("/").content.decode()
    assert "你已不在新手场的匹配队列中。" in lobby


def _elements(html):
    """(tag, attrs, text inside) of each element of ``html``, in document order."""
    from html.parser import HTMLParser

    void = {"input", "br", "img", "meta", "link", "hr", "source", "wbr"}
    found, open_ = [], []

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            element = [tag, dict(attrs), ""]
            found.append(element)
            if tag not in void:
                open_.append(element)

        def handle_endtag(self, tag):
            while open_ and open_.pop()[0] != tag:
                pass

        def handle_data(self, data):
            for element in open_:
                element[2] += data

    Parser().feed(html)
    return found


def test_the_waiting_page_announces_the_others_waiting_only_when_their_number_changes(
    alice, client_of, htmx
):
    """The status block was the aria-live region and also the element its 2-second poll
    replaced, the clock included: a screen reader read "Nobody else is waiting in this room
    yet. Waiting for 0:04" again every 2 seconds. The live region now stays in the page and
    holds the count alone; the poll replaces the clock beside it and sends the count only
    when it differs from the one the page shows."""
    c = client_of(alice)
    quick(c)
    ticket = QueueTicket.objects.get(player=alice)
    elements = _elements(c.get(ticket.get_absolute_url()).content.decode())
    [live] = [e for e in elements if "aria-live" in e[1]]
    [polled] = [e for e in elements if "hx-trigger" in e[1]]
    assert "本场次暂时没有其他人在等待" in live[2] and "已等待" not in live[2]
    assert "已等待" in polled[2] and "其他人" not in polled[2]  # neither holds the other
    assert polled[1]["hx-swap"] == "outerHTML" and "aria-live" not in polled[1]

    poll = c.get(polled[1]["hx-get"], headers=htmx()).content.decode()  # nobody came
    assert re.search(r"已等待 0:0\d", poll)
    assert "aria-live" not in poll and "data-others" not in poll and "其他人" not in poll
    [again] = [e for e in _elements(poll) if "hx-trigger" in e[1]]
    assert again[1]["hx-get"] == polled[1]["hx-get"]

    # the page showed one other player waiting, who has gone: the count is sent, into the
    # live region's inside (the region itself stays, so the change is read)
    gone = c.get(f"{ticket.get_absolute_url()}?others=1", headers=htmx()).content.decode()
    [count] = [e for e in _elements(gone) if e[1].get("id") == live[1]["id"]]
    assert count[1]["hx-swap-oob"] == "innerHTML" and "aria-live" not in count[1]
    assert 'data-others="0"' in gone and "本场次暂时没有其他人在等待" in count[2]


def test_joining_twice_keeps_one_ticket(alice, client_of):
    c = client_of(alice)
    quick(c)
    quick(c)
    assert QueueTicket.objects.filter(player=alice, state="waiting").count() == 1


def test_nobody_sees_another_players_ticket_or_match(alice, bob, outsider, client_of):
    quick(client_of(alice))
    ticket = QueueTicket.objects.get(player=alice)
    assert client_of(outsider).get(ticket.get_absolute_url()).status_code == 404
    quick(client_of(bob))
    match = Match.objects.get()
    assert client_of(outsider).get(match.get_absolute_url()).status_code == 403


def test_quick_match_needs_login_and_post(alice, client, client_of):
    url = reverse("lobby:quick_join", args=["novice"])
    assert client.post(url)["Location"].startswith(reverse("accounts:login"))
    assert client_of(alice).get(url).status_code == 405
    assert not QueueTicket.objects.exists()


def test_a_buttons_address_opened_in_the_address_bar_shows_a_page(alice, client_of, htmx):
    c = client_of(alice)
    page = c.get(reverse("lobby:relief"))
    html = page.content.decode()
    assert page.status_code == 405 and page["Allow"] == "POST"
    assert '<html lang="zh-hans"' in html and reverse("lobby:home") in html
    # htmx keeps the bare answer: it swaps nothing into the page
    bare = c.get(reverse("lobby:relief"), headers=htmx())
    assert bare.status_code == 405 and bare.content == b""


def test_the_stale_ticket_task_cancels_only_stale_tickets(alice, bob):
    import datetime

    from django.utils import timezone

    from lobby.tasks import expire_ticket_if_stale

    novice = RoomTier.objects.get(slug="novice")
    fresh = QueueTicket.objects.create(player=alice, tier=novice, ruleset=novice.ruleset)
    stale = QueueTicket.objects.create(
        player=bob,
        tier=novice,
        ruleset=novice.ruleset,
        last_seen=timezone.now() - datetime.timedelta(minutes=5),
    )
    assert expire_ticket_if_stale(fresh.pk) == "waiting"
    assert expire_ticket_if_stale(stale.pk) == "expired"
    assert expire_ticket_if_stale(stale.pk) == "done"
    fresh.refresh_from_db()
    assert fresh.state == "waiting"


# ----- private rooms ---------------------------------------------------------------------


def test_a_private_room_has_a_code_and_a_share_link_and_is_unranked(alice, bob, client_of, htmx):
    ca = client_of(alice)
    response = ca.post(reverse("lobby:room_new"), {"ruleset": _ruleset_pk("gb"), "base_points": 5})
    room = PrivateRoom.objects.get()
    assert response.url == f"/rooms/{room.code}/"
    assert len(room.code) == 6 and set(room.code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    page = ca.get(room.get_absolute_url()).content.decode()
    assert f"http://testserver/rooms/{room.code}/" in page

    response = client_of(bob).post(reverse("lobby:room_join", args=[room.code.lower()]))
    match = Match.objects.get()
    assert response.url == match.get_absolute_url()
    assert (
        match.kind,
        match.ranked,
        match.beans_per_point,
        match.base_points,
        match.ruleset.slug,
    ) == ("private", False, 0, 5, "gb")
    # The host's polling fragment now sends them to the match.
    assert (
        ca.get(room.get_absolute_url(), headers=htmx())["HX-Redirect"] == match.get_absolute_url()
    )
    # Nobody pays anything for a private room.
    assert not LedgerEntry.objects.filter(reason="settlement").exists()


def test_the_host_has_a_copy_button_for_the_rooms_link_and_a_live_region_for_it(
    alice, bob, client_of
):
    """The host had to select the link and copy it by hand, on a phone a long press in a
    field. The button (shown by its script, tests/e2e/test_room_link_browser.py) names
    the field it copies and the live region that says it was copied; a guest has neither."""
    room = _open_room(alice)
    ca = client_of(alice)
    html = ca.get(room.get_absolute_url()).content.decode()
    field = f'id="room-share" readonly value="http://testserver/rooms/{room.code}/"'
    assert field in html and "/static/lobby/copy.js" in html
    button = re.search(r'<button type="button"[^>]*data-testid="copy-link"[^>]*>([^<]+)<', html)
    assert button and button.group(1) == "复制链接"
    assert 'data-copy="room-share" data-copy-status="room-share-status"' in button.group(0)
    status = re.search(r'<p class="share-status" id="room-share-status" role="status"[^>]*>', html)
    assert status and 'data-copied="链接已复制。"' in status.group(0)
    assert "按 Ctrl+C（Mac 上按 ⌘C）复制" in status.group(0)
    ca.cookies.load({"django_language": "en"})
    html = ca.get(room.get_absolute_url()).content.decode()
    assert ">Copy link<" in html and 'data-copied="Link copied."' in html
    guest = client_of(bob).get(room.get_absolute_url()).content.decode()
    assert 'data-testid="copy-link"' not in guest and "copy.js" not in guest


def test_the_hosts_poll_swaps_nothing_until_the_room_changes(alice, client_of, htmx):
    """Each 2-second poll re-rendered the share link the host may be selecting to copy."""
    room = _open_room(alice)
    c = client_of(alice)
    assert c.get(room.get_absolute_url(), headers=htmx()).status_code == 204
    c.post(reverse("lobby:room_close", args=[room.code]))  # e.g. from another tab
    closed = c.get(room.get_absolute_url(), headers=htmx())
    assert closed.status_code == 200 and b'id="room-status"' in closed.content
    assert b"<html" not in closed.content and b"lobby:home" not in closed.content


def test_a_full_or_closed_room_refuses_a_guest(alice, bob, outsider, client_of):
    room = _open_room(alice)
    client_of(bob).post(reverse("lobby:room_join", args=[room.code]))
    response = client_of(outsider).post(reverse("lobby:room_join", args=[room.code]), follow=True)
    assert any(
        "no longer open" in str(m) or "不再开放" in str(m) for m in response.context["messages"]
    )
    assert Match.objects.count() == 1


def test_the_host_cannot_join_their_own_room_and_only_the_host_closes_it(alice, bob, client_of):
    room = _open_room(alice)
    client_of(alice).post(reverse("lobby:room_join", args=[room.code]))
    assert not Match.objects.exists()
    client_of(bob).post(reverse("lobby:room_close", args=[room.code]))
    room.refresh_from_db()
    assert room.state == "open"
    client_of(alice).post(reverse("lobby:room_close", args=[room.code]))
    room.refresh_from_db()
    assert room.state == "closed"


def test_join_by_code_finds_the_room_or_explains(alice, bob, client_of, htmx):
    room = _open_room(alice)
    cb = client_of(bob)
    response = cb.post(
        reverse("lobby:room_find"), {"code": f" {room.code.lower()} "}, headers=htmx()
    )
    assert response["HX-Redirect"] == room.get_absolute_url()
    response = cb.post(reverse("lobby:room_find"), {"code": "ZZZZZZ"}, headers=htmx())
    assert response.status_code == 200 and b'id="join-code"' in response.content
    assert b"ZZZZZZ" in response.content


def test_join_by_code_refuses_a_room_that_is_closed_or_whose_match_is_over(
    alice, bob, outsider, client, client_of, htmx
):
    """The form found the room by its code and sent the player to its page, a dead end
    that said only "This room is no longer open." with a link back to the lobby they had
    typed the code in. The form says so itself now, and nothing else happens."""
    from lobby import rooms

    closed = _open_room(alice)
    client_of(alice).post(reverse("lobby:room_close", args=[closed.code]))
    cb = client_of(bob)
    response = cb.post(reverse("lobby:room_find"), {"code": closed.code}, headers=htmx())
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Redirect" not in response
    assert 'id="join-code"' in html and f"房间 {closed.code} 已不再开放。" in html
    cb.cookies.load({"django_language": "en"})
    response = cb.post(reverse("lobby:room_find"), {"code": closed.code.lower()}, headers=htmx())
    assert f"Room {closed.code} is no longer open." in response.content.decode()
    home = cb.post(reverse("lobby:room_find"), {"code": closed.code}, follow=True)  # no HTMX
    assert home.redirect_chain == [(reverse("lobby:home"), 302)]
    assert f"Room {closed.code} is no longer open." in home.content.decode()

    played = _open_room(alice)
    match = rooms.join(played, bob)
    Match.objects.filter(pk=match.pk).update(state=Match.State.FINISHED)
    # a stranger, a visitor, and the match's own players: the room is over for all
    for c in (client_of(outsider), client, cb, client_of(alice)):
        response = c.post(reverse("lobby:room_find"), {"code": played.code}, headers=htmx())
        assert "HX-Redirect" not in response
        assert "已不再开放" in response.content.decode() or "no longer open" in (
            response.content.decode()
        )
    # While the match is on, its players still find their way back to it by the code.
    Match.objects.filter(pk=match.pk).update(state=Match.State.PLAYING)
    response = cb.post(reverse("lobby:room_find"), {"code": played.code}, headers=htmx())
    assert response["HX-Redirect"] == played.get_absolute_url()
    assert cb.get(played.get_absolute_url())["Location"] == match.get_absolute_url()
    response = client_of(outsider).post(
        reverse("lobby:room_find"), {"code": played.code}, headers=htmx()
    )
    assert "HX-Redirect" not in response and "已不再开放" in response.content.decode()
    assert PrivateRoom.objects.get(pk=closed.pk).state == "closed"
    assert Match.objects.count() == 1


def test_a_code_of_the_wrong_length_is_told_how_long_a_code_is(alice, client_of, htmx):
    """A code longer than the field's 12 characters was told Django's "Ensure this value
    has at most 12 characters", a limit a 6-character code never needed."""
    c = client_of(alice)
    response = c.post(reverse("lobby:room_find"), {"code": "ABC234" * 3}, headers=htmx())
    assert "房间号是 6 个字符。" in response.content.decode()
    c.cookies.load({"django_language": "en"})
    response = c.post(reverse("lobby:room_find"), {"code": "ABC23"}, headers=htmx())
    assert "Room codes are 6 characters." in response.content.decode()
    home = c.post(reverse("lobby:room_find"), {"code": "X" * 40}, follow=True)  # no HTMX
    assert "Room codes are 6 characters." in home.content.decode()


def test_a_private_room_cannot_use_the_single_player_stages(alice, client_of):
    c = client_of(alice)
    offered = [
        r.slug for r in c.get(reverse("lobby:room_new")).context["form"].fields["ruleset"].queryset
    ]
    assert "stage" not in offered and "classic" in offered
    response = c.post(
        reverse("lobby:room_new"), {"ruleset": _ruleset_pk("stage"), "base_points": 1}
    )
    assert response.context["form"].errors["ruleset"]
    assert not PrivateRoom.objects.exists()


def test_private_room_base_is_validated(alice, client_of):
    response = client_of(alice).post(
        reverse("lobby:room_new"), {"ruleset": _ruleset_pk("classic"), "base_points": 0}
    )
    assert response.status_code == 200 and response.context["form"].errors["base_points"]
    assert not PrivateRoom.objects.exists()


def _ruleset_pk(slug):
    from catalogue.models import Ruleset

    return Ruleset.objects.get(slug=slug).pk


def _open_room(host):
    from catalogue.models import Ruleset
    from lobby import rooms

    return rooms.create(host, Ruleset.objects.get(slug="classic"), 1)


# ----- relief and leaderboards -----------------------------------------------------------


def test_relief_button_appears_below_the_novice_entry_and_grants_once(
    make_player, builtin, client_of
):
    broke = make_player("broke", beans=500)
    c = client_of(broke)
    assert reverse("lobby:relief") in c.get("/").content.decode()
    c.post(reverse("lobby:relief"))
    broke.refresh_from_db()
    assert broke.beans == 3_500
    assert reverse("lobby:relief") not in c.get("/").content.decode()
    c.post(reverse("lobby:relief"))
    assert broke.ledger.filter(reason="relief").count() == 1


def test_no_relief_is_offered_while_the_operator_has_switched_it_off(
    make_player, builtin, client_of
):
    """A relief amount of 0 switches it off (the claim says so): the lobby still offered
    "today's relief of 0 beans", whose button only answered with a refusal."""
    from accounts.models import EconomySettings

    EconomySettings.objects.update_or_create(pk=1, defaults={"relief_amount": 0})
    broke = make_player("broke", beans=500)
    assert reverse("lobby:relief") not in client_of(broke).get("/").content.decode()


def _ranked_escape(tier, escaper, other):
    """A ranked hand in ``tier`` that ``escaper`` leaves at once: ``other`` wins the penalty."""
    from mahjong.tables import services

    table = services.open_table(
        tier.ruleset, [escaper, other], tier=tier, beans_per_point=tier.beans_per_point
    )
    services.leave(table, escaper)
    return table.current_hand()


def test_leaderboards_show_visible_boards_and_the_rank_levels(alice, bob, client):
    hand = _ranked_escape(RoomTier.objects.get(slug="novice"), alice, bob)
    won = hand.result["beans"][1]
    assert won > 0
    response = client.get(reverse("lobby:leaderboards"))
    html = response.content.decode()
    assert response.status_code == 200
    boards = {entry.board.metric: entry.rows for entry in response.context["boards"]}
    assert [r.player for r in boards["beans"]][:2] == [bob, alice]
    assert [(r.player, r.value) for r in boards["net_beans"]] == [(bob, won)]
    assert "自摸王" in html and "200,000" in html
    assert len(response.context["levels"]) == 16


def test_a_hidden_board_is_not_shown(builtin, client):
    from catalogue.models import Leaderboard

    Leaderboard.objects.filter(metric="beans").update(visible=False)
    boards = client.get(reverse("lobby:leaderboards")).context["boards"]
    assert "beans" not in {entry.board.metric for entry in boards}


def test_a_net_beans_board_filters_by_room_and_period(alice, bob, outsider):
    import datetime

    from django.utils import timezone

    from catalogue.models import Leaderboard
    from lobby import leaderboards
    from mahjong.ratings.models import HandResult

    novice, normal = RoomTier.objects.get(slug="novice"), RoomTier.objects.get(slug="normal")
    in_novice = _ranked_escape(novice, bob, alice).result["beans"][1]
    in_normal = _ranked_escape(normal, bob, outsider).result["beans"][1]
    old = [_ranked_escape(normal, alice, bob) for _ in range(2)]
    HandResult.objects.filter(hand__in=old).update(at=timezone.now() - datetime.timedelta(days=40))
    totals = {}
    for result in HandResult.objects.all():
        totals[result.player] = totals.get(result.player, 0) + result.beans

    board = Leaderboard(name="x", metric="net_beans", period="month", tier=novice, size=10)
    assert [(r.player, r.value) for r in leaderboards.rows(board)] == [(alice, in_novice)]
    board.tier = None
    assert [(r.player, r.value) for r in leaderboards.rows(board)] == sorted(
        [(outsider, in_normal), (alice, in_novice)], key=lambda pair: -pair[1]
    )
    board.period = "all"
    winners = sorted(((p, v) for p, v in totals.items() if v > 0), key=lambda pair: -pair[1])
    assert [(r.player, r.value) for r in leaderboards.rows(board)] == winners
    assert bob in dict(winners)  # the old hands count for all time only


def test_the_csrf_token_in_body_hx_headers_authorizes_htmx_posts(alice):
    """HTMX requests outside a form carry only the header from <body hx-headers>."""
    import json
    import re

    from django.test import Client

    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    body = re.search(r"<body hx-headers='([^']+)'>", c.get("/").content.decode()).group(1)
    token = json.loads(body)["X-CSRFToken"]
    url = reverse("lobby:quick_join", args=["novice"])
    assert c.post(url, headers={"HX-Request": "true"}).status_code == 403
    response = c.post(url, headers={"HX-Request": "true", "X-CSRFToken": token})
    assert response.status_code == 200 and response["HX-Redirect"].startswith("/queue/")


def test_error_pages_are_styled_and_translated(alice, bob, outsider, client_of, client):
    missing = client.get("/rooms/NOSUCH/")
    assert missing.status_code == 404 and "页面不存在" in missing.content.decode()
    quick(client_of(alice))
    quick(client_of(bob))
    forbidden = client_of(outsider).get(Match.objects.get().get_absolute_url())
    assert forbidden.status_code == 403
    assert "这是其他玩家的对局。" in forbidden.content.decode()


def test_the_server_error_page_renders_without_a_request():
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "出错了" in html and "/static/css/site.css" in html


def _crash(request):
    raise RuntimeError("a bug")


urlpatterns = [path("crash/", _crash)]  # ROOT_URLCONF of the next test


def test_the_server_error_page_is_in_the_players_language_and_says_so(settings):
    """An English player's 500 page is English and its <html lang> says "en" (it said
    zh-hans whatever the language: a screen reader read the English in a Chinese voice)."""
    from django.test import Client

    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    client.cookies.load({"django_language": "en"})
    english = client.get("/crash/")
    assert english.status_code == 500
    html = english.content.decode()
    assert '<html lang="en">' in html and "Something went wrong" in html
    client.cookies.load({"django_language": "zh-hans"})
    html = client.get("/crash/").content.decode()
    assert '<html lang="zh-hans">' in html and "出错了" in html


def test_joining_schedules_the_stale_check_after_commit_when_a_worker_exists(
    alice, settings, django_capture_on_commit_callbacks, monkeypatch
):
    from lobby import matchmaking, tasks

    sent = []
    monkeypatch.setattr(
        tasks.expire_ticket_if_stale,
        "apply_async",
        lambda args, countdown: sent.append((args, countdown)),
    )
    novice = RoomTier.objects.get(slug="novice")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with django_capture_on_commit_callbacks(execute=True):
        ticket = matchmaking.join(alice, novice)
    assert sent == [((ticket.pk,), 3 * settings.MATCHMAKING_STALE_SECONDS)]
    settings.CELERY_TASK_ALWAYS_EAGER = True
    matchmaking.cancel(ticket)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        matchmaking.join(alice, novice)
    assert callbacks == [] and len(sent) == 1


def test_the_rooms_refresh_is_cheap(alice, client_of, htmx, django_assert_max_num_queries):
    c = client_of(alice)
    # session, user, tiers, waiting counts, playing counts: the same for any number of rooms
    with django_assert_max_num_queries(5):
        response = c.get("/", headers=htmx(target="tiers"))
    assert response.status_code == 200


def test_a_player_with_a_hand_in_play_cannot_quick_match_into_a_second_table(
    alice, bob, outsider, client_of
):
    from mahjong.tables import services as tables

    tier = RoomTier.objects.get(slug="novice")
    table = tables.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    c = client_of(alice)
    home = c.get("/").content.decode()
    assert table.get_absolute_url() in home  # the lobby leads back to the table
    response = quick(c, follow=True)
    assert not QueueTicket.objects.filter(player=alice).exists()
    assert any(
        "另一张牌桌" in str(m) or "another table" in str(m) for m in response.context["messages"]
    )
    quick(client_of(outsider))  # someone waiting would otherwise be paired with alice
    assert not Match.objects.exists()

    tables.leave(table, alice)  # an escape ends the hand: she may queue again
    quick(c)
    assert Match.objects.filter(player_one=outsider, player_two=alice).exists()


def test_sitting_down_at_a_table_elsewhere_takes_the_player_out_of_the_queue(
    alice, bob, outsider, client_of
):
    """Queued in one tab, a private room's table opened in another: the open ticket would
    otherwise still be paired into a second table."""
    from mahjong.tables import services as tables

    quick(client_of(alice))
    ticket = QueueTicket.objects.get(player=alice)
    tables.open_table(RoomTier.objects.get(slug="novice").ruleset, [alice, outsider])
    ticket.refresh_from_db()
    assert ticket.state == QueueTicket.State.CANCELLED
    quick(client_of(bob))
    assert not Match.objects.exists()


def test_the_first_tab_stop_skips_the_top_bar_to_the_page(builtin, client):
    """Keyboard users tabbed through the top bar's links on every page before reaching it."""
    html = client.get(reverse("lobby:home")).content.decode()
    body = html.split("<body", 1)[1].split(">", 1)[1]
    first = re.search(r"<(a|button|input|select)\b[^>]*>([^<]*)", body)
    assert 'href="#main"' in first.group(0) and first.group(2) == "跳到正文", first.group(0)
    assert re.search(r'<main [^>]*id="main"', html)


def test_a_player_with_a_hand_in_play_cannot_join_a_private_room_or_play_its_bot(
    alice, bob, outsider, client_of
):
    """Quick match refused them, a private room did not: the guest (or the host with a
    bot) was seated at a second table, the ranked hand left to the timers and an escape."""
    from mahjong.tables import services as tables

    tier = RoomTier.objects.get(slug="novice")
    mine = _open_room(bob)
    table = tables.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    # opened between two hands, so still open when the next began (opening one during a
    # hand is refused: test_a_player_with_a_hand_in_play_cannot_open_a_private_room)
    PrivateRoom.objects.filter(pk=mine.pk).update(state="open")
    room = _open_room(outsider)
    response = client_of(alice).post(reverse("lobby:room_join", args=[room.code]), follow=True)
    assert any(
        "另一张牌桌" in str(m) or "another table" in str(m) for m in response.context["messages"]
    )
    response = client_of(bob).post(
        reverse("lobby:room_bot", args=[mine.code]), {"level": "random"}, follow=True
    )
    assert any(
        "另一张牌桌" in str(m) or "another table" in str(m) for m in response.context["messages"]
    )
    assert not Match.objects.exists()
    room.refresh_from_db()
    assert room.state == "open"

    tables.leave(table, alice)  # the hand is over: she may join now
    client_of(alice).post(reverse("lobby:room_join", args=[room.code]))
    assert Match.objects.filter(player_one=outsider, player_two=alice).exists()


def test_a_player_with_a_hand_in_play_cannot_open_a_private_room(alice, bob, outsider, client_of):
    """Joining checked the guest only: a host who opened a room during a ranked hand was
    seated at a second table when a friend joined, the hand left to the timers."""
    from mahjong.tables import services as tables

    tier = RoomTier.objects.get(slug="novice")
    table = tables.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    response = client_of(bob).post(
        reverse("lobby:room_new"), {"ruleset": _ruleset_pk("classic"), "base_points": 1}
    )
    assert response.status_code == 200
    assert "另一张牌桌" in response.content.decode()
    assert not PrivateRoom.objects.exists()
    tables.leave(table, alice)  # the hand is over: he may open one now
    client_of(bob).post(
        reverse("lobby:room_new"), {"ruleset": _ruleset_pk("classic"), "base_points": 1}
    )
    assert PrivateRoom.objects.filter(host=bob, state="open").exists()


def test_a_guest_cannot_join_while_the_host_is_back_in_a_hand(alice, bob, outsider, client_of):
    """A room opened between two hands of a table stays open when its next hand starts."""
    from mahjong.tables import services as tables

    room = _open_room(bob)
    tables.open_table(RoomTier.objects.get(slug="novice").ruleset, [alice, bob])
    PrivateRoom.objects.filter(pk=room.pk).update(state="open")  # as between two hands
    response = client_of(outsider).post(reverse("lobby:room_join", args=[room.code]), follow=True)
    assert any("房主正在另一张牌桌" in str(m) for m in response.context["messages"])
    assert not Match.objects.exists()


def test_a_guest_who_joins_twice_goes_to_their_match_without_an_error(alice, bob, client_of):
    room = _open_room(alice)
    cb = client_of(bob)
    first = cb.post(reverse("lobby:room_join", args=[room.code]))
    match = Match.objects.get()
    cb.get(reverse("lobby:sit_down", args=[match.public_id]))  # sat down: a hand in play
    again = cb.post(reverse("lobby:room_join", args=[room.code]), follow=True)
    assert again.redirect_chain[0][0] == first.url == match.get_absolute_url()
    assert not [str(m) for m in again.context["messages"]]
    assert Match.objects.count() == 1


def test_a_player_with_a_hand_in_play_cannot_start_a_bot_game_or_a_stage(alice, bob, client_of):
    """As quick match and private rooms refuse: a second table would leave the first
    one's hand to the timers and its escape penalty."""
    from mahjong.tables import services as tables
    from mahjong.tables.models import Table

    tier = RoomTier.objects.get(slug="novice")
    table = tables.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    c = client_of(alice)
    for response in (
        c.post(reverse("lobby:play_bot"), {"level": "random"}, follow=True),
        c.post(reverse("stages:play"), follow=True),
    ):
        assert any("另一张牌桌" in str(m) for m in response.context["messages"]), response
    assert Table.objects.filter(seats__user=alice).count() == 1
    tables.leave(table, alice)
    c.post(reverse("lobby:play_bot"), {"level": "random"})
    assert Table.objects.filter(seats__user=alice).count() == 2


def test_a_host_who_sits_down_elsewhere_closes_their_open_room(alice, bob, client_of):
    """A friend joining later would have seated the host at a second table."""
    from lobby.models import PrivateRoom

    room = _open_room(alice)
    client_of(alice).post(reverse("lobby:play_bot"), {"level": "random"})
    room.refresh_from_db()
    assert room.state == PrivateRoom.State.CLOSED
    response = client_of(bob).post(reverse("lobby:room_join", args=[room.code]), follow=True)
    assert not Match.objects.exists() and response.context["messages"]


def test_a_player_waiting_in_a_room_the_operator_closes_is_told_and_back_in_the_lobby(
    alice, client_of, htmx
):
    """Alone in the queue, nobody was ever paired with them nor a bot given, and the page
    said "waiting" for good after the room had closed."""
    c = client_of(alice)
    quick(c)
    ticket = QueueTicket.objects.get(player=alice)
    RoomTier.objects.filter(pk=ticket.tier_id).update(is_active=False)  # the admin's list
    response = c.get(ticket.get_absolute_url(), headers=htmx())
    assert response["HX-Redirect"] == "/"
    ticket.refresh_from_db()
    assert ticket.state == QueueTicket.State.CANCELLED
    assert "新手场 暂未开放。" in c.get("/").content.decode()


@pytest.mark.parametrize(
    "cards,widest,expected",
    [
        (5, 5, 5),
        (5, 4, 3),
        (5, 3, 3),
        (5, 2, 1),
        (6, 5, 4),
        (7, 5, 5),
        (9, 5, 5),
        (4, 5, 4),
        (1, 5, 1),
        (2, 3, 2),
        (0, 5, 1),
    ],
)
def test_room_cards_are_laid_out_without_a_lone_card_on_the_last_row(cards, widest, expected):
    from lobby.views import columns

    assert columns(cards, widest) == expected


def test_a_room_nobody_waits_in_is_not_flagged(builtin, client):
    """ "正在等待 0" was red, the colour of an error; a room with players waiting is marked."""
    html = client.get("/").content.decode()
    assert '<dd class="waiting">0</dd>' in html and 'class="waiting now"' not in html
    assert 'class="tiers mid-3 wide-5"' in html
