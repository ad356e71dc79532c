"""The players see how many watch their table (tables.watchers): the page's count, a
reconnect's snapshot, and a push whenever a spectator comes or goes; a dead process's
spectators stop counting and the sweeper drops them. Spectators are not sent the count."""

import datetime
import re

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from mahjong.tables import services, watchers
from mahjong.tables.models import Watcher
from tests.web.tables_support import run
from tests.web.test_spectators import watch_socket
from tests.web.test_tables_live import communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]


def shown(html: str) -> int | None:
    """The count a fragment shows: None without the element, 0 when it is hidden."""
    eye = r'(?:<span aria-hidden="true">👁</span>)?'
    tag = re.search(r'<span id="mj-watchers"([^>]*)>' + eye + r"\s*(\d*)", html)
    if tag is None:
        return None
    return 0 if " hidden" in tag.group(1) else int(tag.group(2))


def test_the_players_are_told_as_spectators_come_and_go(
    redis_layer, duel, alice, outsider, make_player
):
    player = communicator(duel, alice)
    first, second = watch_socket(duel, outsider), watch_socket(duel, make_player("carol2"))

    async def scenario():
        assert (await player.connect())[0]
        snapshot = await player.receive_from(5)
        seen = []
        assert (await first.connect())[0]
        await first.receive_from(5)
        seen.append(await player.receive_from(5))
        assert (await second.connect())[0]
        await second.receive_from(5)
        seen.append(await player.receive_from(5))
        first_quiet = await first.receive_nothing(0.5)  # spectators get no count
        await first.disconnect()
        seen.append(await player.receive_from(5))
        await second.disconnect()
        seen.append(await player.receive_from(5))
        await player.disconnect()
        return snapshot, seen, first_quiet

    snapshot, seen, first_quiet = run(scenario)
    assert shown(snapshot) == 0  # the snapshot carries the count, hidden at none
    assert [shown(html) for html in seen] == [1, 2, 1, 0]
    assert 'hx-swap-oob="true"' in seen[0] and "mj-hand" not in seen[0]  # the count alone
    assert first_quiet
    assert Watcher.objects.count() == 0


def test_the_page_shows_the_count_and_stale_spectators_do_not_count(
    duel, alice, bob, outsider, client_of
):
    now = timezone.now()
    Watcher.objects.create(table=duel, user=outsider, channel_name="fresh", last_seen=now)
    long_ago = now - datetime.timedelta(minutes=5)
    Watcher.objects.create(table=duel, user=bob, channel_name="stale", last_seen=long_ago)
    client = client_of(alice)
    zh = client.get(duel.get_absolute_url()).content.decode()
    assert shown(zh) == 1 and "1 人观战" in zh
    en = client.get(duel.get_absolute_url(), headers={"accept-language": "en"}).content.decode()
    assert "1 watching" in en


def test_the_sweeper_drops_a_dead_processs_spectators_and_tells_the_players(
    redis_layer, duel, alice, outsider
):
    player = communicator(duel, alice)
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    Watcher.objects.create(table=duel, user=outsider, channel_name="gone", last_seen=long_ago)

    async def scenario():
        assert (await player.connect())[0]
        snapshot = await player.receive_from(5)
        await database_sync_to_async(services.sweep)()
        told = await player.receive_from(5)
        await player.disconnect()
        return snapshot, told

    snapshot, told = run(scenario)
    assert shown(snapshot) == 0  # stale already: not counted before the sweep
    assert shown(told) == 0
    assert not Watcher.objects.exists()
    assert watchers.reap() == 0  # nothing left to drop: no message either


def test_a_spectators_ping_keeps_it_counted_and_brings_back_a_reaped_one(duel, outsider):
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    watchers.arrived(duel, outsider, "tab", now=long_ago)
    assert watchers.count(duel.pk) == 0
    watchers.beat(duel, outsider, "tab")
    assert watchers.count(duel.pk) == 1
    watchers.reap()
    Watcher.objects.all().delete()  # reaped while the tab slept
    watchers.beat(duel, outsider, "tab")
    assert watchers.count(duel.pk) == 1
    watchers.arrived(duel, outsider, "second tab")
    assert watchers.count(duel.pk) == 1  # one spectator, however many tabs
    watchers.left(duel, "tab")
    watchers.left(duel, "second tab")
    assert watchers.count(duel.pk) == 0


def test_the_live_list_counts_each_tables_fresh_spectators(
    duel, dave_at_a_bot, bob, outsider, client_of
):
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    for user, tab in ((outsider, "one"), (outsider, "two"), (bob, "three")):
        watchers.arrived(duel, user, tab)
    watchers.arrived(dave_at_a_bot, outsider, "asleep", now=long_ago)
    html = client_of(outsider).get("/tables/live/").content.decode()
    row = r'<tr data-table="(\w+)"[^>]*>.*?data-testid="watching"[^>]*>(\d+)<'
    watching = dict(re.findall(row, html, re.S))
    assert watching == {duel.public_id: "2", dave_at_a_bot.public_id: "0"}
