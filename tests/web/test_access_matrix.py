"""Who may do what (issue 10, Security): a player cannot act at, render the concealed
fragments of, watch the concealed view of, or settle/next/leave another player's table; a
spectator cannot act; an anonymous visitor is sent to log in; a non-staff user reaches no
admin page. CSRF: every URL of the URL conf refuses a POST without the token, and the
HTMX pages carry the token that makes their requests pass."""

import json
import re

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib import admin
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from mahjong.asgi import application
from mahjong.engine.game import default_action
from mahjong.tables.consumers import REFUSED
from mahjong.tables.models import Event, Table
from tests.web.tables_support import refused_connect, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]

CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
# The table's own endpoints and the method each takes (the rest answer 405 to the other).
TABLE_ENDPOINTS = [
    ("tables:table", "get"),
    ("tables:fragments", "get"),
    ("tables:act", "post"),
    ("tables:next", "post"),
    ("tables:back", "post"),
    ("tables:leave", "post"),
]


def facts(table):
    """What any of those endpoints would change: the hand, its log, the table's state."""
    hand = table.current_hand()
    table.refresh_from_db()
    seats = list(table.seats.values_list("auto_play", "ready_next"))
    return hand.version, hand.state, Event.objects.filter(hand=hand).count(), table.status, seats


def socket(table, user, path=""):
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(
        application, f"/ws/tables/{table.public_id}/{path}", headers=headers
    )


@pytest.fixture
def table(alice, bob):
    from catalogue.models import RoomTier
    from mahjong.tables import services

    tier = RoomTier.objects.get(slug="novice")
    return services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )


def test_a_player_of_another_table_can_do_nothing_at_this_one(
    redis_layer, table, outsider, client_of
):
    """carol plays at her own table and tries every endpoint of alice and bob's."""
    from catalogue.models import Ruleset
    from mahjong.tables import services

    bot = outsider.__class__.objects.filter(kind="bot").order_by("pk").first()
    services.open_table(Ruleset.objects.get(slug="classic"), [outsider, bot])
    carol = client_of(outsider)
    hand = table.current_hand()
    state = hand.game()
    move = {"action": str(default_action(state, state.turn)), "version": hand.version}
    before = facts(table)
    for name, method in TABLE_ENDPOINTS:
        url = reverse(name, args=[table.public_id])
        for htmx in ({}, {"HX-Request": "true"}):
            reply = getattr(carol, method)(url, move if method == "post" else {}, headers=htmx)
            if name == "tables:table":  # a link to a table she does not sit at: she watches
                watch = reverse("tables:watch", args=[table.public_id])
                assert (reply.status_code, reply.url) == (302, watch), htmx
                continue
            assert reply.status_code == 403, (name, htmx)
            assert 'data-tile="' not in reply.content.decode()
    assert facts(table) == before
    # the spectator's page: backs only for both hands
    page = carol.get(reverse("tables:watch", args=[table.public_id])).content.decode()
    for seat in (0, 1):
        concealed = page.split(f'data-seat="{seat}"', 1)[1].split('class="melds"', 1)[0]
        assert set(re.findall(r'data-tile="(\w+)"', concealed)) == {"back"}

    player_socket, watch_socket = socket(table, outsider), socket(table, outsider, "watch/")

    async def sockets():
        refused = await refused_connect(player_socket)
        assert (await watch_socket.connect())[0]
        await watch_socket.receive_from(20)
        await watch_socket.send_to(json.dumps(move))
        reply = await watch_socket.receive_from(20)
        await watch_socket.disconnect()
        return refused, reply

    refused, reply = run(sockets)
    assert refused == (False, REFUSED)
    assert "旁观者不能在此牌桌上操作" in reply
    assert facts(table) == before


def test_an_anonymous_visitor_is_sent_to_log_in_and_no_socket_opens(redis_layer, table):
    anonymous = Client()
    login = reverse("accounts:login")
    names = [name for name, _ in TABLE_ENDPOINTS] + ["tables:watch"]
    before = facts(table)
    for name in names:
        url = reverse(name, args=[table.public_id])
        for method in ("get", "post"):
            reply = getattr(anonymous, method)(url)
            assert reply.status_code == 302 and reply.url.startswith(login), (name, method)
    assert anonymous.get(reverse("tables:live")).url.startswith(login)
    assert facts(table) == before
    player, watcher = socket(table, None), socket(table, None, "watch/")

    async def connect_both():
        return [await refused_connect(player), await refused_connect(watcher)]

    assert run(connect_both) == [(False, REFUSED), (False, REFUSED)]


def test_the_seated_players_own_endpoints_work_so_the_refusals_mean_something(
    table, alice, client_of
):
    """The positive control of the matrix: the same requests by a seated player pass."""
    client = client_of(alice)
    for name, method in TABLE_ENDPOINTS[:2]:
        assert getattr(client, method)(reverse(name, args=[table.public_id])).status_code == 200
    hand = table.current_hand()
    reply = client.post(
        reverse("tables:back", args=[table.public_id]), headers={"HX-Request": "true"}
    )
    assert reply.status_code == 200 and hand.version == table.current_hand().version


def admin_changelists():
    return [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    ]


def test_a_non_staff_user_reaches_no_admin_page_and_staff_reach_every_changelist(
    outsider, make_player, client_of
):
    pages = admin_changelists() + [reverse("admin:index")]
    assert len(pages) > 10
    player = client_of(outsider)
    for url in pages:
        reply = player.get(url)
        assert reply.status_code == 302 and reply.url.startswith(reverse("admin:login")), url
    boss = make_player("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    staff = client_of(boss)
    assert [url for url in pages if staff.get(url).status_code != 200] == []


def concrete_urls():
    """Every route of the URL conf with its parameters filled in (a CSRF refusal comes
    before the view, so the objects need not exist). Regex routes are admin catch-alls."""

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif not str(p.pattern).startswith("^") and "(?P" not in prefix + str(p.pattern):
                yield prefix + str(p.pattern)

    def fill(match):
        return "1" if match.group(1) == "int" else "abc1234567"

    return sorted({"/" + CONVERTER.sub(fill, route) for route in walk(get_resolver().url_patterns)})


def test_every_url_refuses_a_post_without_the_csrf_token(outsider, make_player):
    boss = make_player("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    urls = concrete_urls()
    assert len(urls) > 60 and "/tables/abc1234567/act/" in urls
    for user in (None, outsider, boss):
        client = Client(enforce_csrf_checks=True)
        if user is not None:
            client.force_login(user)
        unguarded = []
        for url in urls:
            reply = client.post(url, {"action": "pass", "version": 1})
            if reply.status_code != 403 or b"CSRF" not in reply.content:
                unguarded.append((url, reply.status_code))
        assert unguarded == [], user


def test_the_htmx_pages_send_the_token_and_it_passes(table, alice, outsider):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(table.get_absolute_url()).content.decode()
    headers = json.loads(re.search(r"hx-headers='([^']*)'", page).group(1))
    token = headers["X-CSRFToken"]
    assert token
    hand = table.current_hand()
    state = hand.game()
    if state.turn == 0:
        move = {"action": str(default_action(state, 0)), "version": hand.version}
        url = reverse("tables:act", args=[table.public_id])
    else:
        move, url = {}, reverse("tables:back", args=[table.public_id])
    refused = client.post(url, move, headers={"HX-Request": "true"})
    assert refused.status_code == 403
    passed = client.post(url, move, headers={"HX-Request": "true", "X-CSRFToken": token})
    assert passed.status_code == 200
    # every full page carries the header for its HTMX requests (base.html's body)
    watcher = Client(enforce_csrf_checks=True)
    watcher.force_login(outsider)
    for url in ("/", reverse("tables:live"), reverse("tables:watch", args=[table.public_id])):
        assert re.search(
            r"hx-headers='\{\"X-CSRFToken\": \"\w+\"\}'", watcher.get(url).content.decode()
        )
    assert Table.objects.filter(pk=table.pk, status=Table.Status.PLAYING).exists()
