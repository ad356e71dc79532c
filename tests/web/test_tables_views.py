"""The table page and its HTMX endpoints, through the test client."""

import re

import pytest
from django.urls import reverse

from mahjong.tables.models import Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]


def test_the_page_shows_my_hand_and_only_the_count_of_the_opponents(client_of, duel, alice):
    page = client_of(alice).get(duel.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    state = duel.current_hand().game()
    mine = state.seat(0).hand
    assert len(re.findall(r'data-tile="', html)) == len(mine)
    assert f'data-count="{len(state.seat(1).hand)}"' in html
    assert 'ws-connect="/ws/tables/' in html and 'data-heartbeat="20"' in html
    if state.turn == 0:
        assert 'data-action="discard ' in html


def test_an_outsider_following_a_table_link_watches_it(client_of, duel, outsider, caplog):
    """A logged-in player who opens a table they do not sit at is a spectator: it was a
    403 page, and a traceback in the server log for each visit."""
    c = client_of(outsider)
    response = c.get(duel.get_absolute_url())
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:watch", args=[duel.public_id])
    assert c.get(response["Location"]).status_code == 200
    assert not [r for r in caplog.records if r.exc_info]


def test_an_outsider_cannot_act_at_a_table(client_of, duel, outsider):
    version = duel.current_hand().version
    response = client_of(outsider).post(
        reverse("tables:act", args=[duel.public_id]), {"action": "pass", "version": version}
    )
    assert response.status_code == 403
    assert duel.current_hand().version == version


def test_a_click_answers_with_fresh_fragments_out_of_band(client_of, duel, alice, bob, htmx):
    hand = duel.current_hand()
    state = hand.game()
    mover = [alice, bob][state.turn]
    html = client_of(mover).get(duel.get_absolute_url()).content.decode()
    action = re.search(r'data-action="(discard [^"]+)"', html).group(1)
    reply = client_of(mover).post(
        f"{duel.get_absolute_url()}act/",
        {"action": action, "version": hand.version},
        headers=htmx(),
    )
    body = reply.content.decode()
    assert 'id="mj-hand"' in body and 'hx-swap-oob="true"' in body
    assert duel.current_hand().version == 2


def test_a_click_from_a_stale_view_is_refused_with_a_notice_and_a_fresh_view(
    client_of, duel, alice, bob, htmx
):
    hand = duel.current_hand()
    mover = [alice, bob][hand.game().turn]
    reply = client_of(mover).post(
        f"{duel.get_absolute_url()}act/",
        {"action": "pass", "version": hand.version - 1 or 99},
        headers=htmx(),
    )
    body = reply.content.decode()
    assert "牌局已更新" in body and 'class="flash error"' in body and 'data-version="1"' in body
    assert duel.current_hand().version == 1


def test_a_match_opens_one_table_for_both_players(client_of, alice, bob):
    from catalogue.models import RoomTier
    from mahjong.tables.models import Match

    tier = RoomTier.objects.get(slug="novice")
    match = Match.objects.create(
        kind=Match.Kind.QUICK,
        tier=tier,
        ruleset=tier.ruleset,
        beans_per_point=tier.beans_per_point,
        player_one=alice,
        player_two=bob,
    )
    a = client_of(alice).get(f"/matches/{match.public_id}/table/")
    b = client_of(bob).get(f"/matches/{match.public_id}/table/")
    table = Table.objects.get()
    assert a["Location"] == b["Location"] == table.get_absolute_url()
    assert table.beans_per_point == tier.beans_per_point
    match.refresh_from_db()
    assert match.state == Match.State.PLAYING


def test_the_match_page_takes_both_players_to_the_table_and_keeps_the_link(client_of, alice, bob):
    from catalogue.models import RoomTier
    from mahjong.tables.models import Match

    tier = RoomTier.objects.get(slug="novice")
    match = Match.objects.create(
        kind=Match.Kind.QUICK, tier=tier, ruleset=tier.ruleset, player_one=alice, player_two=bob
    )
    target = f"/matches/{match.public_id}/table/"
    for player in (alice, bob):
        html = client_of(player).get(match.get_absolute_url()).content.decode()
        forward = re.search(r'<meta http-equiv="refresh" content="(\d+); url=([^"]+)"', html)
        assert forward and int(forward.group(1)) <= 3 and forward.group(2) == target
        assert f'data-testid="sit-down" href="{target}"' in html
    Match.objects.filter(pk=match.pk).update(state=Match.State.ABANDONED)
    html = client_of(alice).get(match.get_absolute_url()).content.decode()
    assert 'http-equiv="refresh"' not in html  # nothing to go to
    assert 'data-testid="called-off"' in html and 'data-testid="sit-down"' not in html
    # not headed "Match found!" above "Cancelled": the page says the match is off
    assert "匹配成功" not in html and "<h1>对局已取消</h1>" in html


def test_a_finished_match_says_it_is_over_and_links_to_its_result(client_of, alice, bob):
    """Its table closed (Bob left during the first hand): the page said "Match found!" over
    "Finished" and offered to sit down at a table that was closed."""
    from catalogue.models import RoomTier
    from mahjong.tables import services
    from mahjong.tables.models import Match

    tier = RoomTier.objects.get(slug="novice")
    match = Match.objects.create(
        kind=Match.Kind.QUICK, tier=tier, ruleset=tier.ruleset, player_one=alice, player_two=bob
    )
    client_of(alice).get(f"/matches/{match.public_id}/table/")
    table = Table.objects.get(match=match)
    services.leave(table, bob)
    ca = client_of(alice)
    html = ca.get(match.get_absolute_url()).content.decode()
    assert 'http-equiv="refresh"' not in html and 'data-testid="sit-down"' not in html
    assert "匹配成功" not in html and "<h1>对局已结束</h1>" in html
    assert "牌桌已关闭，共打了 1 局。 Bob 离开了牌桌。" in html
    assert f'data-testid="last-result" href="/history/hands/{table.public_id}/1/"' in html
    assert ca.get(f"/history/hands/{table.public_id}/1/").status_code == 200
    ca.cookies.load({"django_language": "en"})
    html = ca.get(match.get_absolute_url()).content.decode()
    assert "<h1>Match over</h1>" in html and "The table is closed after 1 hand." in html


def _match_made(alice, bob, minutes_ago):
    import datetime

    from django.utils import timezone

    from catalogue.models import RoomTier
    from mahjong.tables.models import Match

    tier = RoomTier.objects.get(slug="novice")
    return Match.objects.create(
        kind=Match.Kind.QUICK,
        tier=tier,
        ruleset=tier.ruleset,
        player_one=alice,
        player_two=bob,
        created_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
    )


def test_a_match_nobody_sat_down_at_in_time_opens_no_table(client_of, alice, bob):
    """The opponent of a match made long ago is gone: seating them now would make them
    time out and pay an escape, so the match is called off instead."""
    from mahjong.tables.models import Match

    stale, fresh = _match_made(alice, bob, minutes_ago=6), _match_made(alice, bob, minutes_ago=4)
    answer = client_of(alice).get(f"/matches/{stale.public_id}/table/")
    assert answer.status_code == 302 and answer["Location"] == stale.get_absolute_url()
    stale.refresh_from_db()
    assert stale.state == Match.State.ABANDONED and not Table.objects.filter(match=stale)
    assert client_of(bob).get(f"/matches/{stale.public_id}/table/")["Location"] == (
        stale.get_absolute_url()
    )
    answer = client_of(alice).get(f"/matches/{fresh.public_id}/table/")
    assert answer["Location"] == Table.objects.get(match=fresh).get_absolute_url()


def test_the_sweeper_calls_off_the_matches_nobody_sat_down_at(client_of, alice, bob):
    from mahjong.tables import services
    from mahjong.tables.models import Match

    stale, fresh = _match_made(alice, bob, minutes_ago=6), _match_made(alice, bob, minutes_ago=4)
    seated = _match_made(alice, bob, minutes_ago=1)
    client_of(alice).get(f"/matches/{seated.public_id}/table/")  # its table opened in time
    Match.objects.filter(pk=seated.pk).update(created_at=stale.created_at)
    services.sweep()
    states = dict(Match.objects.values_list("pk", "state"))
    assert states == {
        stale.pk: Match.State.ABANDONED,
        fresh.pk: Match.State.READY,
        seated.pk: Match.State.PLAYING,
    }


def test_the_end_of_hand_panel_lists_fans_and_offers_the_next_hand(settings, client_of, alice, bob):
    from catalogue.models import RoomTier
    from mahjong.tables import services

    settings.MAHJONG_TEST_SEED = "win255"  # timeouts, then 托管, end this wall in a self-draw
    tier = RoomTier.objects.get(slug="novice")
    table = services.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    while not (hand := table.current_hand()).game().ended:
        services.advance(hand.pk, hand.version)
    html = client_of(alice).get(table.get_absolute_url()).content.decode()
    assert 'data-outcome="self_draw"' in html
    for fan in hand.result["fans"]:
        assert f'data-fan="{fan["key"]}"' in html
    assert 'data-testid="next-hand"' in html
    assert hand.seed in html


def test_the_table_speaks_chinese(client_of, duel, alice):
    html = client_of(alice).get(duel.get_absolute_url()).content.decode()
    text = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
    text = text.replace(duel.public_id, "")  # a random id may be all letters (was flaky)
    words = re.findall(r"\b[A-Za-z]{4,}\b", text)
    assert [w for w in words if w not in {"Online", "Alice", "English"}] == []
    assert "牌墙" in text and "庄家" in text


def test_leaving_mid_hand_is_an_escape_and_returns_to_the_lobby(client_of, duel, alice, htmx):
    reply = client_of(alice).post(f"{duel.get_absolute_url()}leave/", headers=htmx())
    assert reply["HX-Redirect"] == "/"
    assert duel.current_hand().result["kind"] == "escape"


def test_why_the_table_closed_is_told_in_each_readers_language(
    client_of, duel, alice, bob, outsider
):
    """Alice leaves from an English page: Bob, on a Chinese one, and a spectator reading
    English each get the note in their own language (it is not frozen in Alice's)."""
    english = client_of(alice)
    english.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english.post(f"{duel.get_absolute_url()}leave/")
    duel.refresh_from_db()
    assert duel.status == Table.Status.FINISHED
    name = alice.display_name
    mine = client_of(bob).get(duel.get_absolute_url()).content.decode()
    assert f"{name} 离开了牌桌。" in mine and "left the table" not in mine
    watcher = client_of(outsider)
    watcher.post("/i18n/setlang/", {"language": "en", "next": "/"})
    watched = watcher.get(f"{duel.get_absolute_url()}watch/").content.decode()
    assert f"{name} left the table." in watched


def test_a_second_click_on_next_hand_after_it_started_is_not_refused(
    client_of, bot_table, alice, htmx
):
    """A double click on "next hand" against a bot: the first click starts hand 2, the
    second (made on hand 1's result) must not come back with "the hand is still being
    played" -- that wish was already granted."""
    from tests.web.tables_support import play_out

    play_out(bot_table)
    html = client_of(alice).get(bot_table.get_absolute_url()).content.decode()
    assert re.search(r'data-testid="next-hand"[^>]*hx-vals=\'\{"hand": 1\}\'', html)
    url = f"{bot_table.get_absolute_url()}next/"
    client_of(alice).post(url, {"hand": "1"}, headers=htmx())
    assert bot_table.current_hand().number == 2
    again = client_of(alice).post(url, {"hand": "1"}, headers=htmx()).content.decode()
    assert "本局尚未结束" not in again and 'class="flash error"' not in again
    assert bot_table.current_hand().number == 2
    # without the hand it was made on, a click during play is still refused
    refused = client_of(alice).post(url, headers=htmx()).content.decode()
    assert "本局尚未结束" in refused


def test_a_player_waiting_for_the_next_hand_can_still_leave(client_of, duel, alice, bob, htmx):
    """After "next hand" the panel says it waits for the opponent, who may never come back
    (closed the page at the result): the Leave button must stay, or the page has no way
    out (the status bar's Leave is for a hand in play only)."""
    from tests.web.tables_support import play_out

    play_out(duel)
    client_of(alice).post(f"{duel.get_absolute_url()}next/", {"hand": "1"}, headers=htmx())
    html = client_of(alice).get(duel.get_absolute_url()).content.decode()
    assert "等待对手" in html and 'data-testid="leave"' in html
    reply = client_of(alice).post(f"{duel.get_absolute_url()}leave/", headers=htmx())
    assert reply["HX-Redirect"] == "/"
    duel.refresh_from_db()
    assert duel.status == Table.Status.FINISHED
    assert "alice" in client_of(bob).get(duel.get_absolute_url()).content.decode().lower()


@pytest.mark.parametrize("clicked_next", [False, True])
def test_a_player_is_told_when_the_opponent_closed_the_table_page_after_the_hand(
    client_of, duel, alice, bob, htmx, clicked_next
):
    """Before, "next hand" waited on "等待对手…" until the sweeper closed the table ten
    minutes after the last page closed, and the page still open kept it from closing."""
    import datetime

    from django.utils import timezone

    from mahjong.tables import services
    from mahjong.tables.models import Seat
    from tests.web.tables_support import play_out

    play_out(duel)
    if clicked_next:
        client_of(alice).post(f"{duel.get_absolute_url()}next/", {"hand": "1"}, headers=htmx())
    bob_seat = Seat.objects.get(table=duel, user=bob)
    services.connected(bob_seat, "bob-tab")
    services.disconnected(bob_seat, "bob-tab")
    page = client_of(alice).get(duel.get_absolute_url()).content.decode()
    assert 'data-testid="opp-gone"' not in page  # a reload is back within seconds
    Seat.objects.filter(pk=bob_seat.pk).update(
        disconnected_at=timezone.now() - datetime.timedelta(seconds=6)
    )
    page = client_of(alice).get(duel.get_absolute_url()).content.decode()
    assert "Bob 已关闭牌桌页面。你可以等待对方回来，也可以离开。" in page
    assert "等待对手" not in page
    assert 'data-testid="leave"' in page and 'data-testid="leave-to-bot"' in page
    assert ('data-testid="next-hand"' in page) is not clicked_next
    reply = client_of(alice).post(
        f"{duel.get_absolute_url()}leave/", {"hand": "1", "to": "bot"}, headers=htmx()
    )
    assert reply["HX-Redirect"] == "/#play-bot"
    duel.refresh_from_db()
    assert duel.status == Table.Status.FINISHED
    assert duel.hands.count() == 1  # nobody escaped: the hand was over


def test_a_forged_leave_destination_goes_to_the_lobby(client_of, duel, alice, htmx):
    from tests.web.tables_support import play_out

    play_out(duel)
    for to in ("https://evil.example/", "//evil.example", "bot#x"):
        reply = client_of(alice).post(
            f"{duel.get_absolute_url()}leave/", {"hand": "1", "to": to}, headers=htmx()
        )
        assert reply["HX-Redirect"] == "/"


def test_the_other_player_is_told_the_opponent_is_ready_for_the_next_hand(
    client_of, duel, dave_at_a_bot, alice, bob, htmx
):
    """Before, the panel of the player still to click showed only Next hand / Leave, as if
    the opponent had not asked yet. A bot's seat is always ready: never said."""
    from tests.web.tables_support import play_out

    def page(user, table):
        return client_of(user).get(table.get_absolute_url()).content.decode()

    play_out(duel)
    assert 'data-testid="opp-ready"' not in page(bob, duel)
    client_of(alice).post(f"{duel.get_absolute_url()}next/", {"hand": "1"}, headers=htmx())
    assert "Alice 已准备好下一局。" in page(bob, duel) and 'data-testid="next-hand"' in page(
        bob, duel
    )
    assert 'data-testid="opp-ready"' not in page(alice, duel)
    play_out(dave_at_a_bot)
    dave = dave_at_a_bot.seats.get(index=0).user
    assert 'data-testid="opp-ready"' not in page(dave, dave_at_a_bot)


def test_the_result_panels_leave_does_not_escape_from_a_hand_started_meanwhile(
    client_of, bot_table, alice, htmx
):
    """The result panel's Leave asks no confirmation (the hand is over). Made on hand 1's
    result after hand 2 started (another tab's "next hand" against the bot), it left
    during hand 2: an escape the player was never asked about. It names its hand now."""
    from tests.web.tables_support import play_out

    play_out(bot_table)
    html = client_of(alice).get(bot_table.get_absolute_url()).content.decode()
    assert re.search(r'data-testid="leave"[^>]*hx-vals=\'\{"hand": 1\}\'', html)
    client_of(alice).post(f"{bot_table.get_absolute_url()}next/", {"hand": "1"}, headers=htmx())
    hand = bot_table.current_hand()
    assert hand.number == 2
    url = f"{bot_table.get_absolute_url()}leave/"
    refused = client_of(alice).post(url, {"hand": "1"}, headers=htmx())
    body = refused.content.decode()
    assert "新的一局已经开始，未执行任何操作" in body and 'class="flash error"' in body
    assert "HX-Redirect" not in refused
    bot_table.refresh_from_db()
    assert bot_table.status == Table.Status.PLAYING
    assert (
        bot_table.current_hand().ended_at is None
        and not bot_table.current_hand().events.filter(kind="escape").exists()
    )
    # the status bar's Leave (no hand named, after its confirmation) still leaves
    assert client_of(alice).post(url, headers=htmx())["HX-Redirect"] == "/"
    bot_table.refresh_from_db()
    assert bot_table.status == Table.Status.FINISHED


def test_the_last_hand_of_a_gb_match_says_the_match_is_over_instead_of_next_hand(
    client_of, alice, bob
):
    """gb plays 8-hand matches: the 8th hand's result offered "next hand", and clicking it
    only closed the table ("the match is over"). The result says so at once now."""
    from catalogue.models import Ruleset
    from mahjong.tables import services
    from tests.web.tables_support import play_out

    table = services.open_table(Ruleset.objects.get(engine_slug="gb"), [alice, bob])
    for number in range(1, 9):
        play_out(table)
        table.refresh_from_db()
        if number < 8:
            assert table.status == Table.Status.PLAYING
            services.ready_next(table, alice)
            services.ready_next(table, bob)
    assert table.status == Table.Status.FINISHED
    html = client_of(alice).get(table.get_absolute_url()).content.decode()
    assert "data-outcome=" in html and "对局已结束" in html
    assert 'data-testid="next-hand"' not in html and 'data-testid="to-lobby"' in html


def test_the_result_after_an_escape_says_who_escaped(client_of, duel, alice, bob, outsider, htmx):
    """The panel read only "Escape (逃跑)": the player left at the table could not tell
    from it whether they or the opponent had run. Each page names the escaper."""
    client_of(alice).post(f"{duel.get_absolute_url()}leave/", headers=htmx())
    heading = re.compile(r"<h2[^>]*>(.*?)</h2>", re.S)

    def result_heading(client, url):
        html = client.get(url).content.decode()
        return heading.findall(html.split('data-outcome="escape"', 1)[1])[0]

    name = alice.display_name
    assert result_heading(client_of(alice), duel.get_absolute_url()) == "你逃跑了"
    assert result_heading(client_of(bob), duel.get_absolute_url()) == f"{name} 逃跑了"
    watch = f"{duel.get_absolute_url()}watch/"
    assert result_heading(client_of(outsider), watch) == f"{name} 逃跑了"
    english = client_of(bob)
    english.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert result_heading(english, duel.get_absolute_url()) == f"{name} escaped (逃跑)"
    mine = client_of(alice)
    mine.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert result_heading(mine, duel.get_absolute_url()) == "You escaped (逃跑)"
