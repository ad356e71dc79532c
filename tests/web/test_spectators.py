"""Spectating (issue 7 item 6): the watch page and socket show the public view only, both
hands once the hand ends, never accept an action, get the public view pushed rendered
once per move for all of them (issue 30 item 4), and a private room's host may close the
table to spectators."""

import json
import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from catalogue.models import Ruleset
from lobby import rooms
from lobby.models import PrivateRoom
from mahjong.asgi import application
from mahjong.engine.game import default_action
from mahjong.tables import spectators
from mahjong.tables.consumers import REFUSED
from tests.web.tables_support import play_out, refused_connect, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]

TILE = re.compile(r'data-tile="(\w+)"')


def watch_socket(table, user, language=""):
    client = Client()
    client.force_login(user)
    headers = [
        (b"host", b"testserver"),
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    if language:
        headers.append((b"accept-language", language.encode()))
    return WebsocketCommunicator(
        application, f"/ws/tables/{table.public_id}/watch/", headers=headers
    )


def hand_area(html: str, seat: int) -> str:
    """The concealed part of a seat's area on the watch page (backs or the revealed hand)."""
    area = html.split(f'class="mj-watch-seat" data-seat="{seat}"', 1)[1]
    return area.split('class="concealed row"', 1)[1].split('class="melds"', 1)[0]


def private_room_table(host, guest, client_of, allow=True):
    room = rooms.create(host, Ruleset.objects.get(slug="classic"), 1)
    room.allow_spectators = allow
    room.save()
    match = rooms.join(room, guest)
    client_of(host).get(reverse("lobby:sit_down", args=[match.public_id]))
    room.refresh_from_db()
    return room, match.table


def test_an_outsider_watches_backs_only_a_player_goes_to_the_seat_anonymous_logs_in(
    duel, alice, outsider, client_of
):
    url = reverse("tables:watch", args=[duel.public_id])
    page = client_of(outsider).get(url)
    assert page.status_code == 200
    html = page.content.decode()
    # the heading names the players (it read "观战 <table id>")
    assert '<h1 class="sr-only">观战：Alice 对 Bob</h1>' in html
    assert "<title>观战：Alice 对 Bob" in html
    state = duel.current_hand().game()
    for seat in (0, 1):
        area = hand_area(html, seat)
        assert area.count('data-tile="back"') == len(state.seat(seat).hand)
        assert not [t for t in TILE.findall(area) if t != "back"]
    assert f'ws-connect="/ws/tables/{duel.public_id}/watch/"' in html
    assert state.seed.hex() not in html

    mine = client_of(alice).get(url)
    assert mine.status_code == 302 and mine.url == duel.get_absolute_url()
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("accounts:login"))


def test_the_watch_page_heading_names_the_players_in_english_too(duel, outsider, client_of):
    """The heading and title read "Watching hdr6zrdr67": the table's id, not who plays."""
    client = client_of(outsider)
    client.cookies.load({"django_language": "en"})
    html = client.get(reverse("tables:watch", args=[duel.public_id])).content.decode()
    assert '<h1 class="sr-only">Watching Alice vs Bob</h1>' in html
    assert "<title>Watching Alice vs Bob" in html
    # the rules being played, in the rule book (a spectator may not know 二人雀神's)
    assert f'href="/rules/{duel.ruleset.slug}/" data-testid="rules-link">Rules of ' in html


def test_the_live_list_shows_tables_being_played_and_the_lobby_links_to_it(
    duel, dave_at_a_bot, outsider, client_of
):
    from mahjong.tables.models import Table

    Table.objects.filter(pk=dave_at_a_bot.pk).update(status=Table.Status.FINISHED)
    client = client_of(outsider)
    html = client.get(reverse("tables:live")).content.decode()
    assert reverse("tables:watch", args=[duel.public_id]) in html
    assert "Alice" in html and "Bob" in html
    assert dave_at_a_bot.public_id not in html
    assert "<th></th>" not in html  # every column is named, for a screen reader too
    assert reverse("tables:live") in client.get("/").content.decode()


def test_the_live_list_leaves_out_a_table_whose_last_hand_has_ended(
    duel, dave_at_a_bot, alice, bob, outsider, client_of
):
    """A table left between hands stays PLAYING until the sweeper closes it (ten minutes),
    a bot table whose player closed the tab on the result screen too: a spectator opening
    one found a finished hand and nobody. Only a table with a hand in progress is listed,
    at the same number of queries however many tables there are."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from mahjong.tables import services
    from mahjong.tables.models import Table

    client = client_of(outsider)
    live = reverse("tables:live")
    with CaptureQueriesContext(connection) as both_listed:
        client.get(live)

    assert play_out(dave_at_a_bot).ended_at is not None
    dave_at_a_bot.refresh_from_db()
    assert dave_at_a_bot.status == Table.Status.PLAYING  # between hands, nobody there
    with CaptureQueriesContext(connection) as one_listed:
        html = client.get(live).content.decode()
    assert reverse("tables:watch", args=[duel.public_id]) in html
    assert dave_at_a_bot.public_id not in html
    assert len(one_listed) == len(both_listed)

    play_out(duel)
    html = client.get(live).content.decode()
    assert duel.public_id not in html and dave_at_a_bot.public_id not in html

    services.ready_next(duel, alice)
    services.ready_next(duel, bob)  # the next hand is dealt: listed again
    assert [t.public_id for t in spectators.live_tables()] == [duel.public_id]


def test_a_host_may_close_the_private_room_to_spectators(
    redis_layer, alice, bob, outsider, client_of
):
    room, table = private_room_table(alice, bob, client_of)
    watcher = client_of(outsider)
    url = reverse("tables:watch", args=[table.public_id])
    assert watcher.get(url).status_code == 200
    assert table.public_id in watcher.get(reverse("tables:live")).content.decode()
    ws = watch_socket(table, outsider, language="en")  # an English page: told in English
    toggle = reverse("lobby:room_spectators", args=[room.code])
    host, guest = client_of(alice), client_of(bob)

    async def watch_then_closed():
        assert (await ws.connect())[0]
        await ws.receive_from(20)
        # only the host may switch; the guest is refused and nothing changes
        assert (await _post(guest, toggle, {"allow": "0"})).status_code == 403
        assert await ws.receive_nothing(0.3)
        assert (await _post(host, toggle, {"allow": "0"})).status_code == 302
        return await ws.receive_output(20), await ws.receive_output(20)

    notice, closed = run(watch_then_closed)
    # the spectator's page says why it stopped (it froze without a word)
    assert notice["type"] == "websocket.send"
    assert 'id="mj-watch-notice"' in notice["text"]
    assert "The host of this private room does not allow spectators." in notice["text"]
    # and its clock stops: it counted down to a move the page would never see
    clock = notice["text"].split('id="mj-watch-clock"', 1)[1].split("</div>", 1)[0]
    assert 'data-deadline=""' in clock and "to move" not in clock
    assert closed == {"type": "websocket.close", "code": REFUSED}
    room.refresh_from_db()
    assert room.allow_spectators is False
    assert watcher.get(url).status_code == 403
    assert table.public_id not in watcher.get(reverse("tables:live")).content.decode()
    assert client_of(alice).get(url).status_code == 302  # a player still reaches the seat

    again = watch_socket(table, outsider)

    assert run(refused_connect, again) == (False, REFUSED)
    client_of(alice).post(toggle, {"allow": "1"})
    assert PrivateRoom.objects.get(pk=room.pk).allow_spectators
    assert watcher.get(url).status_code == 200


async def _post(client, url, data):
    from channels.db import database_sync_to_async

    return await database_sync_to_async(client.post)(url, data)


def test_the_room_page_offers_the_host_the_switch(alice, bob, client_of):
    room = rooms.create(alice, Ruleset.objects.get(slug="classic"), 1)
    html = client_of(alice).get(room.get_absolute_url()).content.decode()
    assert reverse("lobby:room_spectators", args=[room.code]) in html
    assert 'data-testid="room-spectators"' in html
    other = client_of(bob).get(room.get_absolute_url()).content.decode()
    assert "room-spectators" not in other


def test_a_spectator_follows_every_move_cannot_act_and_sees_both_hands_at_the_end(
    redis_layer, duel, alice, bob, outsider
):
    from channels.db import database_sync_to_async

    from mahjong.tables import services

    hand = duel.current_hand()
    state = hand.game()
    ws = watch_socket(duel, outsider)
    mover = [alice, bob][state.turn]
    action = str(default_action(state, state.turn))

    def move():
        services.act(duel, mover, action, hand.version)

    async def scenario():
        assert (await ws.connect())[0]
        snapshot = await ws.receive_from(20)
        await ws.send_to(json.dumps({"action": action, "version": hand.version}))
        refusal = await ws.receive_from(20)
        unchanged = await database_sync_to_async(lambda: duel.current_hand().version)()
        await ws.send_to(json.dumps({"ping": 1}))
        silent = await ws.receive_nothing(0.3)
        await database_sync_to_async(move)()
        push = await ws.receive_from(20)
        await database_sync_to_async(play_out)(duel)
        last = push
        while "data-outcome" not in last:
            last = await ws.receive_from(20)
        await ws.disconnect()
        return snapshot, refusal, unchanged, silent, push, last

    snapshot, refusal, unchanged, silent, push, last = run(scenario)
    assert f'data-version="{hand.version}"' in snapshot and 'hx-swap-oob="true"' in snapshot
    assert "Spectators cannot act" in refusal or "旁观" in refusal
    assert unchanged == hand.version  # the spectator's action did nothing
    assert silent
    assert f'data-version="{hand.version + 1}"' in push
    final = duel.current_hand().game()
    for seat in (0, 1):
        shown = [t for t in TILE.findall(hand_area(last, seat)) if t != "back"]
        assert len(shown) == len(final.seat(seat).hand)
    assert final.seed.hex() in last


def test_a_crowd_of_spectators_shares_one_rendering_per_version(
    redis_layer, duel, outsider, make_player, monkeypatch
):
    from channels.db import database_sync_to_async

    from mahjong.tables import services

    renders = []
    real = spectators.render
    monkeypatch.setattr(spectators, "render", lambda *a: renders.append(1) or real(*a))
    crowd = [outsider] + [make_player(f"watcher{i}") for i in range(3)]
    sockets = [watch_socket(duel, u) for u in crowd]
    hand = duel.current_hand()

    async def scenario():
        for ws in sockets:
            assert (await ws.connect())[0]
        first = [await ws.receive_from(20) for ws in sockets]
        await database_sync_to_async(services.advance)(hand.pk, hand.version)
        second = [await ws.receive_from(20) for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return first, second

    first, second = run(scenario)
    assert len(set(first)) == 1 and len(set(second)) == 1 and first[0] != second[0]
    assert len(renders) == 2  # one per version for four spectators


def test_a_move_is_read_and_rendered_once_per_language_for_a_whole_crowd(
    redis_layer, duel, outsider, make_player, monkeypatch
):
    """The public view is pushed rendered (spectators.publish): five spectators in two
    languages cost two renders and one read of the hand, not one of each per socket."""
    from channels.db import database_sync_to_async

    from mahjong.tables import compiled, services

    crowd = [outsider] + [make_player(f"watcher{i}") for i in range(4)]
    languages = ["en", "en", "en", "zh-hans", "zh-hans"]
    sockets = [watch_socket(duel, u, lang) for u, lang in zip(crowd, languages, strict=True)]
    hand = duel.current_hand()
    renders, reads = [], []

    def counting(log, real):
        return lambda *a: log.append(1) or real(*a)

    async def scenario():
        for ws in sockets:
            assert (await ws.connect())[0]
            await ws.receive_from(20)
        monkeypatch.setattr(spectators, "render", counting(renders, spectators.render))
        monkeypatch.setattr(compiled, "latest_hand", counting(reads, compiled.latest_hand))
        await database_sync_to_async(services.advance)(hand.pk, hand.version)
        pushes = [await ws.receive_from(20) for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return pushes

    pushes = run(scenario)
    assert len(renders) == 2 and len(reads) == 1
    assert all(f'data-version="{hand.version + 1}"' in p for p in pushes)
    assert len(set(pushes[:3])) == 1 and len(set(pushes[3:])) == 1
    assert "Hand 1" in pushes[0] and "第 1 局" in pushes[3]


def test_the_watch_and_live_pages_speak_chinese(duel, outsider, client_of):
    client = client_of(outsider)
    for url in (reverse("tables:watch", args=[duel.public_id]), reverse("tables:live")):
        html = client.get(url).content.decode()
        text = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", html, flags=re.S)
        text = text.replace(duel.public_id, "")
        words = re.findall(r"\b[A-Za-z]{4,}\b", text)
        assert [w for w in words if w not in {"Online", "Alice", "Carol", "English"}] == [], url


def test_spectators_get_the_moves_but_not_the_players_emotes(redis_layer, duel, alice, outsider):
    """The players' emotes go to the players' group, which spectators are not in: a
    spectator neither sees one nor drops on it, and gets the next move's view."""
    from channels.db import database_sync_to_async
    from django.test import Client

    from mahjong.tables import services

    ws = watch_socket(duel, outsider)
    player = Client()
    player.force_login(alice)
    emote_url = f"{duel.get_absolute_url()}emote/"
    hand = duel.current_hand()

    async def scenario():
        assert (await ws.connect())[0]
        await ws.receive_from(20)
        sent = await database_sync_to_async(lambda: player.post(emote_url, {"emote": "nice"}))()
        quiet = await ws.receive_nothing(timeout=1)
        await database_sync_to_async(services.advance)(hand.pk, hand.version)
        push = await ws.receive_from(20)
        await ws.disconnect()
        return sent.status_code, quiet, push

    status, quiet, push = run(scenario)
    assert status == 200 and quiet
    assert f'data-version="{hand.version + 1}"' in push


def test_the_host_keeps_the_switch_at_the_table_once_the_friend_has_joined(alice, bob, client_of):
    """The room's page sends a seated host on to the table, so the switch is there too;
    it swaps itself over htmx and, without script, comes back to the table."""
    room, table = private_room_table(alice, bob, client_of)
    host = client_of(alice)
    assert host.get(room.get_absolute_url()).status_code == 302  # on to the match
    page = host.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="room-spectators"' in page
    assert (
        'data-testid="room-spectators"'
        not in client_of(bob).get(table.get_absolute_url()).content.decode()
    )
    toggle = reverse("lobby:room_spectators", args=[room.code])
    swapped = host.post(toggle, {"allow": "0"}, headers={"HX-Request": "true"})
    assert swapped.status_code == 200
    assert "不允许旁观" in swapped.content.decode()  # the page language: Chinese
    assert PrivateRoom.objects.get(pk=room.pk).allow_spectators is False
    back = host.post(toggle, {"allow": "1", "next": table.get_absolute_url()})
    assert back["Location"] == table.get_absolute_url()
    away = host.post(toggle, {"allow": "1", "next": "https://evil.example/"})
    assert away["Location"] == room.get_absolute_url()


def test_the_winning_hand_is_drawn_in_tiles_for_spectators(
    alice, bob, outsider, client_of, settings
):
    """As on the players' result panel: the blocks as tile pictures; the watch page wrote
    the engine's notation ("567m 789m 66z …") as text."""
    from catalogue.models import RoomTier
    from mahjong.tables import services

    tier = RoomTier.objects.get(slug="novice")
    settings.MAHJONG_TEST_SEED = "history-12"  # ends in a win (tests/web/test_history.py)
    table = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    hand = play_out(table)
    blocks = hand.result["decomposition"].split()
    assert hand.result["winner"] is not None and blocks
    html = client_of(outsider).get(reverse("tables:watch", args=[table.public_id])).content
    shown = html.decode().split('class="decomposition"')[1].split("</p>")[0]
    assert hand.result["decomposition"] not in html.decode()
    assert shown.count('class="block"') == len(blocks)
    assert f"tiles/{spectators._tiles(blocks[0])[0]}.svg" in shown


def test_a_bot_is_badged_once_on_the_watch_page(bot_table, outsider, client_of):
    """The bot's name carries its 🤖 (accounts.models.BOT_BADGE); the page added a second."""
    html = client_of(outsider).get(reverse("tables:watch", args=[bot_table.public_id]))
    names = re.findall(r'<div class="mj-name">(.*?)</div>', html.content.decode(), flags=re.S)
    assert len(names) == 2 and [n.count("🤖") for n in names].count(1) == 1, names


def test_a_stage_tables_spectator_sees_the_climb_not_the_session_points(alice, outsider, client_of):
    """关卡: the watch page read "Alice -600 · 🤖 电脑·高手 0", the stakes lost as session
    points, while the player's own bar read "Stage 2: your score 2,400, 10,000 to pass."
    (session points mean nothing there). The spectator now reads the climb too."""
    from mahjong.stages import services as stages

    table = stages.play(alice)  # stage 1: 1,500 less the stake placed
    url = reverse("tables:watch", args=[table.public_id])
    html = client_of(outsider).get(url).content.decode()
    bar = html.split('data-testid="stage-score">', 1)[1].split("</span>", 1)[0]
    assert bar == "第 1 关：Alice 的分数 1,200，过关需 4,000。"
    english = client_of(outsider)
    english.cookies.load({"django_language": "en"})
    html = english.get(url).content.decode()
    assert "Stage 1: Alice's score 1,200, 4,000 to pass." in html
    assert "Alice <b>0</b>" not in html


def test_a_duels_spectator_sees_both_players_points(duel, outsider, client_of):
    html = client_of(outsider).get(reverse("tables:watch", args=[duel.public_id])).content
    assert "Alice <b>0</b> · Bob <b>0</b>" in html.decode()
    assert b'data-testid="stage-score"' not in html
