"""The table page as a player sees it (issue 11): tile art with accessible names, the drawn
tile and the 财神 marked, opponent's tiles as backs, the latest discard marked, keyboard
hooks, the waits hint (听牌提示) per room, and the comfort switches as remembered."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from catalogue.models import RoomTier, Ruleset
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.tiles import format_tile
from mahjong.tables import presenters, services
from tests.web.tables_support import act_through_pause

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]

IMG = re.compile(r'<img class="tile__img" src="[^"]+" alt="([^"]*)"')
# alice (dealer, seat 0) holds 123456789m 11z 22z and 3z: discarding 3z waits on 1z and 2z
READY_DEALER = "123456789m11z22z3z"
OTHER = "444555666777z1m"


def page_of(client, table) -> str:
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def between(html: str, start: str, end: str) -> str:
    return html[html.index(start) : html.index(end)]


def script(table, dealer_hand=READY_DEALER, other_hand=OTHER, rules="classic", draws=""):
    """Put a scripted deal on the table's current hand (alice dealing)."""
    hand = table.current_hand()
    hand.state = scripted_hand(
        rules, dealer_hand=dealer_hand, other_hand=other_hand, draws=draws
    ).to_dict()
    hand.save(update_fields=["state"])
    return hand


def until_drawn(table, players) -> int:
    """Play plain moves (pass a claim, else discard) until a seat holds a drawn tile."""
    from mahjong.engine.game import legal_actions

    for _ in range(10):
        hand = table.current_hand()
        state = hand.game()
        if state.phase == "turn" and state.seat(state.turn).drawn is not None:
            return state.turn
        moves = [str(a) for a in legal_actions(state, state.turn)]
        move = "pass" if "pass" in moves else next(m for m in moves if m.startswith("discard"))
        act_through_pause(table, players[state.turn], move, hand.version)
    raise AssertionError("nobody drew")


def test_every_tile_is_art_with_a_name_and_the_opponent_shows_backs(client_of, duel, alice):
    html = page_of(client_of(alice), duel)
    state = duel.current_hand().game()
    hand_html = between(html, 'id="mj-hand"', 'id="mj-prompt"')
    mine = IMG.findall(hand_html)
    assert len(mine) >= len(state.seat(0).hand)
    assert all(mine), "a tile without an accessible name"
    # the page is Chinese by default: 五万-style names, never the notation
    assert all(not re.fullmatch(r"\d[mpsz]", name) for name in mine)
    opponent = between(html, 'id="mj-opponent"', 'id="mj-rivers"')
    backs = IMG.findall(opponent)
    assert backs.count("牌背") == len(state.seat(1).hand)
    assert "tile--back" in opponent and "data-tile" not in opponent
    # the old text tiles are gone: no tile carries its notation as text
    assert not re.search(r'class="tile[^"]*">\d[mpsz]<', html)


def test_names_follow_the_language(client_of, duel, alice):
    c = client_of(alice)
    c.post("/accounts/language/", {"language": "en", "next": "/"})
    html = page_of(c, duel)
    names = IMG.findall(between(html, 'id="mj-hand"', 'id="mj-prompt"'))
    assert any(" of " in n or "wind" in n or "dragon" in n for n in names), names
    assert "Tile back" in IMG.findall(between(html, 'id="mj-opponent"', 'id="mj-rivers"'))


def test_the_drawn_tile_is_marked_apart_and_every_own_tile_has_a_key(client_of, duel, alice, bob):
    mover = [alice, bob][until_drawn(duel, [alice, bob])]
    html = page_of(client_of(mover), duel)
    own = between(html, 'id="mj-hand"', 'id="mj-prompt"')
    drawn = re.search(r'<button class="tile-button drawn[^>]*data-drawn="1".*?</button>', own, re.S)
    assert drawn and "tile--drawn" in drawn.group(0)
    assert re.search(r'alt="[^"]+（刚摸到）"', drawn.group(0))
    keys = re.findall(r'data-key="([^"]*)"', own)
    assert keys == list("1234567890-=qw")  # 13 tiles and the drawn one
    assert 'aria-keyshortcuts="1"' in own and 'aria-keyshortcuts="w"' in drawn.group(0)


def test_every_tile_of_a_wenzhou_hand_has_its_key_as_the_help_lists(client_of, alice):
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(Ruleset.objects.get(slug="wenzhou"), [alice, bot])
    script(
        table, dealer_hand="1112345678999m55p23s", other_hand="1234567899p123456s", rules="wenzhou"
    )
    html = page_of(client_of(alice), table)
    own = between(html, 'id="mj-hand"', 'id="mj-prompt"')
    # 16 tiles and the drawn one: past the digit row, q w e r t
    keys = re.findall(r'<button[^>]*data-key="([^"]*)"', own)
    assert keys == list("1234567890-=qwert")
    help_keys = re.findall(r"<kbd>([^<]+)</kbd>", between(html, 'id="mj-help"', "</dl>"))
    assert set("qwert") <= set(help_keys)


def test_the_wenzhou_wild_is_marked_wherever_it_shows(client_of, alice):
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(Ruleset.objects.get(slug="wenzhou"), [alice, bot])
    hand = table.current_hand()
    # the indicator 5p makes 5p the 财神; alice holds two of them
    hand.state = scripted_hand(
        "wenzhou", dealer_hand="1112345678999m55p23s", other_hand="1234567899p123456s", back="5p"
    ).to_dict()
    hand.save(update_fields=["state"])
    state = hand.game()
    wild = format_tile(state.wild)
    assert wild == "5p"
    html = page_of(client_of(alice), table)
    status = between(html, 'id="mj-status"', 'id="mj-opponent"')
    assert "tile--wild" in status and f'data-face="{wild}"' in status
    own = between(html, 'id="mj-hand"', 'id="mj-prompt"')
    held = [t for t in state.seat(0).hand if t == state.wild]
    assert len(held) == 2
    marked = re.findall(r'tile--wild" data-tile="([^"]+)"', own)
    assert marked == [wild] * len(held)
    assert len(re.findall(r'alt="[^"]+（财神）', own)) == len(held)


def test_the_latest_discard_is_marked_in_its_river(client_of, duel, alice, bob, htmx):
    hand = duel.current_hand()
    mover_seat = hand.game().turn
    mover = [alice, bob][mover_seat]
    c = client_of(mover)
    action = re.search(r'data-action="(discard [^"]+)"', page_of(c, duel)).group(1)
    c.post(
        f"{duel.get_absolute_url()}act/",
        {"action": action, "version": hand.version},
        headers=htmx(),
    )
    for viewer in (alice, bob):
        rivers = between(page_of(client_of(viewer), duel), 'id="mj-rivers"', 'id="mj-clock"')
        latest = re.findall(
            r'<span class="latest"><span class="tile[^"]*" data-face="([^"]+)"', rivers
        )
        assert latest == [action.split()[1]]
        river = re.search(rf'data-seat="{mover_seat}".*?</div></div>', rivers, re.S).group(0)
        assert 'class="latest"' in river


def test_after_a_claimed_kong_no_river_rings_a_tile_until_the_claimer_discards(
    client_of, duel, alice, bob
):
    """A claimed discard leaves the river; the kong's replacement draw made the table ring
    the discarder's older tile (9m here) as if it were the one just played."""
    from tests.engine.test_game import KONG_ON_SECOND_DISCARD

    hand = duel.current_hand()
    hand.state = scripted_hand("classic", **KONG_ON_SECOND_DISCARD).to_dict()
    hand.save(update_fields=["state"])
    moves = [(alice, "discard 9m"), (bob, "pass"), (bob, "discard 6z"), (alice, "discard 1z")]
    for player, action in [*moves, (bob, "kan 1z")]:
        services.act(duel, player, action, duel.current_hand().version)

    def ringed(viewer) -> list[str]:
        rivers = between(page_of(client_of(viewer), duel), 'id="mj-rivers"', 'id="mj-clock"')
        assert "9m" in rivers
        return re.findall(
            r'<span class="latest"><span class="tile[^"]*" data-face="([^"]+)"', rivers
        )

    assert ringed(alice) == ringed(bob) == []
    services.act(duel, bob, "discard 7z", duel.current_hand().version)
    assert ringed(alice) == ringed(bob) == ["7z"]


def test_the_waits_hint_lists_ready_discards_with_what_is_left(client_of, bot_table, alice):
    script(bot_table)
    html = page_of(client_of(alice), bot_table)  # no tier, against a bot: the hint is on
    hint = re.search(r'data-testid="waits-hint".*?</div>', html, re.S).group(0)
    assert re.findall(r'data-discard="([^"]+)"', hint) == ["3z"]
    assert re.findall(r'data-face="(\dz)"', hint) == ["3z", "1z", "2z"]
    assert re.findall(r'data-left="(\d+)"', hint) == ["2", "2"]
    ready = re.findall(r'class="tile-button[^"]*keeps-ready"[^>]*data-action="discard (\w+)"', html)
    assert ready == ["3z"]


def test_a_locked_ready_hand_is_told_its_waits_not_a_discard_to_choose(client_of, bot_table, alice):
    """After 报听 the server discards each drawn tile (RULES.md 3.9.2): the hint offered
    'Ready if you discard 9m' and marked 9m as the tile to play, a choice the player does
    not have. A locked hand is shown what it waits on."""
    hand = script(bot_table, draws="5m9m")  # bob draws 5m and lets it go, alice draws 9m
    services.act(bot_table, alice, "ting 3z", hand.version)
    bot = bot_table.seats.get(index=1).user
    services.act(bot_table, bot, "discard 5m", bot_table.current_hand().version)
    state = bot_table.current_hand().game()
    assert state.seat(0).locked and format_tile(state.seat(0).drawn) == "9m"
    html = page_of(client_of(alice), bot_table)
    hint = re.search(r'data-testid="waits-hint".*?</div>', html, re.S).group(0)
    assert "已听牌，等：" in hint and "data-discard" not in hint
    assert re.findall(r'data-face="(\dz)"', hint) == ["1z", "2z"]
    assert re.findall(r'data-left="(\d+)"', hint) == ["2", "2"]
    assert "keeps-ready" not in html


def test_the_hint_counts_only_what_the_seat_can_see():
    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=OTHER)
    # seat 1 waits on 1m; the dealer holds one, which seat 1 cannot see: 3 are unseen
    assert presenters.waits_hint(state, 1) == {
        "ready": {"waits": [{"tile": "1m", "left": 3}], "left": 3}
    }
    assert presenters.waits_hint(state, 0)["discards"][0]["left"] == 4


def test_the_hint_follows_the_room_tier(client_of, duel, alice):
    script(duel)
    assert duel.tier.waits_hint  # the novice room
    assert 'data-testid="waits-hint"' in page_of(client_of(alice), duel)
    RoomTier.objects.filter(pk=duel.tier_id).update(waits_hint=False)
    duel.refresh_from_db()
    html = page_of(client_of(alice), duel)
    assert 'data-testid="waits-hint"' not in html and "keeps-ready" not in html


def test_no_hint_between_two_people_without_a_tier(client_of, alice, bob):
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    script(table)
    assert 'data-testid="waits-hint"' not in page_of(client_of(alice), table)


def test_the_switches_show_the_remembered_settings(client_of, duel, alice):
    User.objects.filter(pk=alice.pk).update(auto_pass=True, sound_on=False, motion_on=False)
    html = page_of(client_of(alice), duel)
    pressed = dict(re.findall(r'data-pref="(\w+)" aria-pressed="(true|false)"', html))
    assert pressed == {
        "auto_win": "false",
        "auto_pass": "true",
        "discard_drawn": "false",
        "sound_on": "false",
        "motion_on": "false",
        "emotes_muted": "false",
    }
    assert 'data-sound-on="0"' in html and 'data-motion="off"' in html
    User.objects.filter(pk=alice.pk).update(motion_on=True)
    assert 'data-motion="on"' in page_of(client_of(alice), duel)


def test_prompts_are_named_in_the_page_language(client_of, bot_table, alice):
    script(bot_table)
    c = client_of(alice)
    prompt = between(page_of(c, bot_table), 'id="mj-prompt"', 'id="mj-result"')
    assert 'data-verb="ting"' in prompt and "报听" in prompt
    c.post("/accounts/language/", {"language": "en", "next": "/"})
    prompt = between(page_of(c, bot_table), 'id="mj-prompt"', 'id="mj-result"')
    assert "Declare ready" in prompt


def test_the_end_of_a_hand_names_every_fan_in_both_languages(settings, client_of, alice):
    from tests.web.tables_support import play_out

    settings.MAHJONG_TEST_SEED = "win254"  # this wall ends hand 1 in a self-drawn win
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    bot_table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bot])
    hand = play_out(bot_table)
    result = hand.result
    assert result["kind"] == "self_draw" and result["fans"]
    client = Client()
    client.force_login(alice)
    with translation.override("zh-hans"):
        html = page_of(client, bot_table)
    for fan in result["fans"]:
        row = re.search(rf'<tr data-fan="{fan["key"]}">.*?</tr>', html, re.S).group(0)
        assert fan["zh"] in row and fan["en"] in row
    assert 'data-outcome="' in html
    # the winning reading, drawn as tiles block by block
    shown = re.search(r'<p class="decomposition".*?</p>', html, re.S).group(0)
    faces = re.findall(r'data-face="([^"]+)"', shown)
    blocks = [presenters.tiles_of(b) for b in result["decomposition"].split()]
    assert faces == [t for b in blocks for t in b] and faces
    # the way to the hand's page, where its replay and the engine's review are
    link = f'href="/history/hands/{bot_table.public_id}/{hand.number}/" data-testid="hand-review"'
    assert link in html and "复盘本局" in html
    review = client.get(f"/history/hands/{bot_table.public_id}/{hand.number}/")
    assert review.status_code == 200


def test_a_push_to_a_tiered_table_costs_no_query_for_the_hint(duel, django_assert_max_num_queries):
    """The socket keeps one Table object and refreshes it before each push: the tier's
    switch is read once, the pushes stay at the hand and the seats (two queries)."""
    presenters.fragments(duel, 0)
    duel.refresh_from_db()
    with django_assert_max_num_queries(2):
        presenters.fragments(duel, 0)


def how_line(html: str) -> str:
    """The line under the result's heading that says how the hand was won ('' if none)."""
    found = re.search(r'<p class="mj-how"[^>]*>(.*?)</p>', html, re.S)
    return re.sub(r"\s+", " ", found.group(1)).strip() if found else ""


def test_the_result_says_how_the_hand_was_won_from_the_viewers_side(
    settings, client_of, alice, bob, outsider, duel
):
    """The result card said who won and the points, not how: now 自摸 / Self-drawn, or on
    whose discard (点炮), 'your' for the player who discarded it; the watch page too."""
    from django.urls import reverse

    from tests.web.tables_support import play_out

    hand = play_out(duel)
    result = hand.result
    assert result["kind"] in {"self_draw", "discard_win"}
    winner = result["winner"]
    players = {0: alice, 1: bob}
    names = {0: "Alice", 1: "Bob"}
    watch = reverse("tables:watch", args=[duel.public_id])
    loser = 1 - winner

    def set_result(**change):
        hand.result = {**result, **change}
        hand.save(update_fields=["result"])

    def lines() -> dict:
        said = {seat: how_line(page_of(client_of(user), duel)) for seat, user in players.items()}
        said["watch"] = how_line(client_of(outsider).get(watch).content.decode())
        return said

    set_result(kind="self_draw", loser=None)
    assert lines() == {0: "自摸", 1: "自摸", "watch": "自摸"}
    set_result(kind="discard_win", loser=loser)
    assert lines() == {
        loser: "你点炮",
        winner: f"{names[loser]} 点炮",
        "watch": f"{names[loser]} 点炮",
    }
    set_result(kind="draw", winner=None, loser=None)  # a draw has no such line
    assert lines() == {0: "", 1: "", "watch": ""}

    for user in (alice, bob, outsider):  # the English page (the choice is the account's)
        client_of(user).post("/accounts/language/", {"language": "en", "next": "/"})
    set_result(kind="self_draw", loser=None)
    assert lines() == {0: "Self-drawn (自摸)", 1: "Self-drawn (自摸)", "watch": "Self-drawn (自摸)"}
    set_result(kind="discard_win", loser=loser)
    theirs = f"On {names[loser]}'s discard (点炮)"
    assert lines() == {loser: "On your discard (点炮)", winner: theirs, "watch": theirs}


def test_fan_names_are_in_the_pages_language_and_values_on_one_line(settings, client_of, alice):
    """The Chinese result card read 门清 Concealed hand, 清一色 Full flush: now the Chinese
    page names a fan in Chinese (the English name its title), the English page as
    Full flush (清一色), as the hand page does; the value (1 × 5) does not wrap."""
    from tests.web.tables_support import play_out

    settings.MAHJONG_TEST_SEED = "win254"  # this wall ends hand 1 in a self-drawn win
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bot])
    fans = play_out(table).result["fans"]
    assert fans
    client = client_of(alice)

    def rows(html):
        for fan in fans:
            row = re.search(rf'<tr data-fan="{fan["key"]}">(.*?)</tr>', html, re.S).group(1)
            name, value = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
            yield fan, name, re.sub(r"<[^>]+>", "", name).strip(), row

    for fan, name, text, row in rows(page_of(client, table)):
        assert text == fan["zh"], row  # no English beside it
        assert f'title="{fan["en"]}"' in name
        assert 'class="fan-value"' in row
    client.post("/accounts/language/", {"language": "en", "next": "/"})
    for fan, _name, text, row in rows(page_of(client, table)):
        assert re.sub(r"\s+", " ", text) == f"{fan['en']} ({fan['zh']})", row
        assert 'class="fan-value"' in row


def settlement_line(html: str) -> str:
    start = html.index('class="settlement"')
    return html[start : html.index("</p>", start)]


def test_a_points_table_says_where_the_rake_went(settings, client_of, alice, bob):
    """雀神 takes 5% of a win for the house in points too, where no beans are at stake (play
    vs bot, a private room): the winner's points came out one short of the fans' total and
    the two scores no longer summed to 0, with nothing on the card saying why. It now says
    the rake, as a beans table does."""
    from tests.web.tables_support import play_out

    settings.MAHJONG_TEST_SEED = "history-rake"  # ends in a win of 20 fan or more
    table = services.open_table(Ruleset.objects.get(engine_slug="quesheng"), [alice, bob])
    hand = play_out(table)
    rake = hand.result["points_rake"]
    assert rake >= 1 and hand.result["beans"] is None, hand.result
    assert sum(hand.result["deltas"]) == -rake
    html = page_of(client_of(alice), table)
    settlement = settlement_line(html)
    assert f'台费：<span data-points-rake="{rake}">{rake}</span>' in settlement
    client_of(alice).post("/accounts/language/", {"language": "en", "next": "/"})
    settlement = settlement_line(page_of(client_of(alice), table))
    assert f'Rake: <span data-points-rake="{rake}">{rake}</span>' in settlement


def test_a_points_table_without_a_rake_shows_none(client_of, alice, duel):
    from tests.web.tables_support import play_out

    hand = play_out(duel)
    assert hand.result["points_rake"] == 0
    assert "data-points-rake" not in page_of(client_of(alice), duel)


def test_a_win_on_an_added_kong_names_itself_and_its_tile(client_of, duel, alice, bob):
    """抢杠: alice adds 5m to her pong of 5m, and bob waits on it. His prompt said only
    胡 / 过: the meld was still the pong and no discard was marked, so nothing on his
    screen said what he would win on, or why a win was offered on alice's turn."""
    from mahjong.engine.game import legal_actions

    script(
        duel, dealer_hand="55m123m789m11z2347z", other_hand="5m34m666m777m444z2z", draws="2z7z5m"
    )
    players = [alice, bob]
    # alice lets 7z go, bob 5m (ready on 2m 5m), alice pongs it and lets 3z go, bob his
    # drawn 7z; alice draws the last 5m and adds it to her pong
    for seat, move in (
        (0, "discard 7z"),
        (1, "discard 5m"),
        (0, "pon 5m"),
        (0, "discard 3z"),
        (1, "discard 7z"),
        (0, "addkan 5m"),
    ):
        hand = duel.current_hand()
        assert move in [str(a) for a in legal_actions(hand.game(), seat)], move
        services.act(duel, players[seat], move, hand.version)
    assert duel.current_hand().game().phase == "rob"
    prompt = between(page_of(client_of(bob), duel), 'id="mj-prompt"', 'id="mj-result"')
    win = re.search(r'<button[^>]*data-verb="hu".*?</button>', prompt, re.S).group(0)
    assert "抢杠胡" in win and 'data-face="5m"' in win and 'aria-keyshortcuts="h"' in win
    client_of(bob).post("/accounts/language/", {"language": "en", "next": "/"})
    prompt = between(page_of(client_of(bob), duel), 'id="mj-prompt"', 'id="mj-result"')
    assert "Rob the kong" in prompt and ">Win<" not in prompt


def test_a_bots_turn_shows_no_seconds_running_out(client_of, bot_table, alice):
    """The bot's turn has the server's short delay for a deadline: the clock read "电脑 to
    move 1s" in red, a decision's last seconds, at every move of the bot. Its turn now
    counts nothing down, as the player's own auto-played turns do; the player's own
    decision keeps its seconds."""
    script(bot_table)
    clock = re.search(r'<div id="mj-clock"[^>]*>', page_of(client_of(alice), bot_table)).group(0)
    assert 'data-turn="me"' in clock and "data-auto" not in clock
    services.act(bot_table, alice, "discard 3z", bot_table.current_hand().version)
    clock = re.search(r'<div id="mj-clock"[^>]*>', page_of(client_of(alice), bot_table)).group(0)
    assert 'data-turn="opp"' in clock and 'data-auto="1"' in clock


def test_a_person_opponents_decision_keeps_its_seconds(client_of, duel, alice):
    script(duel)
    services.act(duel, alice, "discard 3z", duel.current_hand().version)
    clock = re.search(r'<div id="mj-clock"[^>]*>', page_of(client_of(alice), duel)).group(0)
    assert 'data-turn="opp"' in clock and "data-auto" not in clock and 'data-deadline="2' in clock


def test_passed_wins_show_their_doubling_at_the_seat_and_in_the_result(
    client_of, alice, bob, outsider
):
    """雀神's 过胡加倍: each passed win doubles the fan. Nothing at the table showed a
    seat's passes, and the result listed the fans with a total twice their sum."""
    from mahjong.engine.game import legal_actions

    table = services.open_table(Ruleset.objects.get(engine_slug="quesheng"), [alice, bob])
    script(table, other_hand="444555666777z1m", rules="quesheng", draws="1z2z")
    players = [alice, bob]
    for seat, move in ((0, "ting 3z"), (1, "discard 1z"), (0, "guo")):
        hand = table.current_hand()
        assert move in [str(a) for a in legal_actions(hand.game(), seat)], move
        services.act(table, players[seat], move, hand.version)
    mine = between(page_of(client_of(alice), table), 'id="mj-hand"', 'class="mj-row mj-own"')
    theirs = between(page_of(client_of(bob), table), 'id="mj-opponent"', 'class="mj-row"')
    assert 'data-doubling="2"' in mine and "过胡加倍 ×2" in mine
    assert 'data-doubling="2"' in theirs and "data-doubling" not in between(
        page_of(client_of(bob), table), 'id="mj-hand"', 'class="mj-row mj-own"'
    )
    watch = reverse("tables:watch", args=[table.public_id])
    assert "过胡加倍 ×2" in client_of(outsider).get(watch).content.decode()  # spectators too
    services.act(table, alice, "hu", table.current_hand().version)  # 2z: self-drawn
    result = table.current_hand().result
    assert result["winner"] == 0
    fans = sum(f["fan"] * f["count"] for f in result["fans"])
    assert result["total"] == 2 * fans
    html = page_of(client_of(bob), table)
    card = between(html, 'class="fans"', "</table>")
    assert re.search(r'<tr data-doubling="2"><td>过胡加倍</td><td class="fan-value">× 2</td>', card)
    watched = client_of(outsider).get(watch).content.decode()
    assert re.search(
        r'<tr data-doubling="2"><td>过胡加倍</td><td class="fan-value">× 2</td>', watched
    )
    # the history's hand page lists the fans under the same total
    number = table.current_hand().number
    past = client_of(bob).get(reverse("history:hand", args=[table.public_id, number]))
    fans_card = between(past.content.decode(), 'class="table fans"', "</table>")
    assert re.search(
        r'<tr data-doubling="2"><td>过胡加倍</td><td class="num fan-value">× 2</td>', fans_card
    )
    client_of(bob).post("/accounts/language/", {"language": "en", "next": "/"})
    card = between(page_of(client_of(bob), table), 'class="fans"', "</table>")
    assert "Passed wins (过胡加倍)" in card


def test_no_doubling_is_shown_without_a_passed_win(client_of, duel, alice):
    from tests.web.tables_support import play_out

    play_out(duel)
    assert "data-doubling" not in page_of(client_of(alice), duel)


def test_the_wenzhou_base_is_shown_as_it_rises(client_of, alice, outsider, make_player, duel):
    """温州's 进阶分 (RULES.md 9.5): the hand's B rises 10, 20, 30, 40 with the dealer's
    wins, and a win pays fan × B. Nothing at the table showed it: a 1-fan win paid 10 in
    one hand and 40 a few hands later."""
    wenzhou = Ruleset.objects.get(engine_slug="wenzhou")
    table = services.open_table(wenzhou, [outsider, make_player("dave")])  # alice: duel
    html = page_of(client_of(outsider), table)
    assert re.search(r'data-testid="hand-base">进阶分 <b>10</b>', html)
    hand = table.current_hand()
    hand.state["session"]["level"] = 2  # the dealer's third hand after two wins
    hand.save(update_fields=["state"])
    client_of(outsider).post("/accounts/language/", {"language": "en", "next": "/"})
    assert re.search(
        r'data-testid="hand-base">Base \(进阶分\) <b>30</b>', page_of(client_of(outsider), table)
    )
    assert 'data-testid="hand-base"' not in page_of(client_of(alice), duel)  # one level


def test_the_result_explains_how_points_are_counted_with_the_tables_numbers(
    settings, client_of, alice
):
    """The card showed the fans, their total and the points, never how one made the other;
    a 'How points are counted' under the points gives the formula with this table's
    numbers: the operator's multiplier (4 here, not the rules' 3), the room's 底分 (2)."""
    from tests.web.tables_support import play_out

    settings.MAHJONG_TEST_SEED = "win254"  # this wall ends hand 1 in a self-drawn win
    Ruleset.objects.filter(slug="classic").update(overrides={"self_draw_multiplier": 4})
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bot], base_points=2)
    result = play_out(table).result
    assert result["kind"] == "self_draw" and result["points"] == result["total"] * 4 * 2
    card = between(page_of(client_of(alice), table), 'id="mj-result"', 'class="muted mj-seed"')
    shown = re.search(r'<details class="mj-points-help".*?</details>', card, re.S).group(0)
    assert "<summary>分数怎么算</summary>" in shown
    assert "<li>自摸或抢杠胡：总番数 × 4 × 底分 2。</li>" in shown
    assert "<li>点炮：总番数 × 1 × 底分 2。</li>" in shown
    assert "<li>计分番数最多 13 番。</li>" in shown


@pytest.mark.parametrize("slug", ["classic", "stage", "quesheng", "tiao72", "gb", "wenzhou"])
def test_every_ruleset_explains_its_points_in_both_languages(slug):
    from mahjong.engine.rulesets import get_ruleset
    from mahjong.tables.models import Table

    table = Table(base_points=1, beans_per_point=10)
    said = {}
    for language in ("zh-hans", "en"):
        with translation.override(language):
            said[language] = presenters.points_help.lines(table, get_ruleset(slug))
    assert said["en"] and all(said["en"]) and said["en"][-1] == "Beans: points × 10."
    assert all(zh != en for zh, en in zip(said["zh-hans"], said["en"], strict=True))
    if slug == "wenzhou":  # the progressive base's levels, from the ruleset
        assert "B is 10 / 20 / 30 / 40:" in said["en"][1]
        assert "The multiplier counted is at most 8." in said["en"]  # its items multiply
    if slug in ("classic", "stage"):  # 关卡's fan × (fan + 1) × 50 is capped too
        assert "The fan counted is at most 13." in said["en"]


def test_a_stage_hand_the_computer_won_is_explained_as_the_lost_stake():
    """关卡: "Your win scores fan × (fan + 1) × 50" under the computer's win, which scores
    nothing for it (RULES.md 5.3): the player loses the stake, no more."""
    from mahjong.engine.rulesets import get_ruleset
    from mahjong.tables.models import Table

    with translation.override("en"):
        said = presenters.points_help.lines(Table(base_points=1), get_ruleset("stage"), 1)
        assert said == ["The computer's win scores nothing: you lose only the hand's stake."]
        mine = presenters.points_help.lines(Table(base_points=1), get_ruleset("stage"), 0)
        assert mine[0].startswith("Your win scores fan × (fan + 1) × 50")


def test_a_capped_win_shows_the_cap_as_a_row_of_its_fans(client_of, alice, bob, outsider, duel):
    """Classic's 四暗刻 + 四连刻 is 26 fan, paid at the cap of 13: the fans beside a total
    of 13, with the cap only in a collapsed section, read as a wrong sum. The cap is a row
    of the table on the result card, the watch page and the hand's page."""
    from mahjong.engine.fans import score_win
    from mahjong.engine.shapes import WinContext
    from mahjong.engine.tiles import parse_tile, parse_tiles
    from tests.web.tables_support import play_out

    rs = duel.ruleset.engine()
    score = score_win(
        rs,
        WinContext(
            hand=tuple(parse_tiles("111222333444m5m")), melds=(), win=parse_tile("5m"), tsumo=True
        ),
    )
    assert score.raw_total == 26 and score.total == 13
    hand = play_out(duel)
    hand.result = {
        **hand.result,
        "kind": "self_draw",
        "winner": 0,
        "loser": None,
        "total": score.total,
        "fans": [
            {
                "key": f.key,
                "zh": f.zh,
                "en": f.en,
                "fan": f.fan,
                "count": f.count,
                "points": f.points,
            }
            for f in score.fans
        ],
    }
    hand.save(update_fields=["result"])
    row = re.compile(r'<tr data-cap="13"><td>封顶</td><td class="[a-z -]*fan-value">13</td></tr>')
    pages = [
        page_of(client_of(alice), duel),
        client_of(outsider).get(reverse("tables:watch", args=[duel.public_id])),
        client_of(outsider).get(reverse("history:hand", args=[duel.public_id, hand.number])),
    ]
    for page in pages:
        html = page if isinstance(page, str) else page.content.decode()
        assert row.search(html), html[:200]


def test_each_river_says_whose_it_is_and_gb_shows_the_seat_winds(client_of, alice, bob, outsider):
    """The two rivers on a desktop sat side by side with no word of whose they were; gb
    scores each seat's wind (门风刻) and no screen showed which wind a seat had."""
    gb = services.open_table(Ruleset.objects.get(engine_slug="gb"), [alice, bob])
    dealer = gb.current_hand().game().dealer
    html = page_of(client_of(alice), gb)
    rivers = between(html, 'id="mj-rivers"', 'id="mj-hand"')
    assert '<p class="river-name" id="mj-river-opp">Bob 的牌河' in rivers
    assert '<p class="river-name" id="mj-river-me">你的牌河' in rivers
    mine, theirs = ("1z", "3z") if dealer == 0 else ("3z", "1z")
    assert re.findall(r'data-wind="(\dz)"', rivers) == [theirs, mine]
    watch = client_of(outsider).get(reverse("tables:watch", args=[gb.public_id])).content
    assert sorted(re.findall(r'data-wind="(\dz)"', watch.decode())) == ["1z", "3z"]
    bot = User.objects.filter(kind=User.Kind.BOT).first()
    classic = services.open_table(Ruleset.objects.get(slug="classic"), [outsider, bot])
    assert "data-wind" not in page_of(client_of(outsider), classic)


def wenzhou_self_draw(players, concealed: str, *, wild: str):
    """A 温州 table whose first hand, played out, is rewritten as seat 0's self-drawn win
    on 1z with ``concealed`` and ``wild`` the 财神 (the deal's indicator made it): the
    settlement's reading and wild marks as services.settlement.finish stores them."""
    from mahjong.engine.fans import score_win
    from mahjong.engine.shapes import WinContext
    from mahjong.engine.tiles import parse_tile, parse_tiles
    from mahjong.tables.services.settlement import _decomposition, _wild_played
    from tests.web.tables_support import play_out

    ctx = WinContext(
        hand=tuple(parse_tiles(concealed)),
        melds=(),
        win=parse_tile("1z"),
        tsumo=True,
        wild=parse_tile(wild),
    )
    score = score_win(Ruleset.objects.get(engine_slug="wenzhou").engine(), ctx)
    table = services.open_table(Ruleset.objects.get(engine_slug="wenzhou"), players)
    hand = play_out(table)
    hand.result = {
        **hand.result,
        "kind": "self_draw",
        "winner": 0,
        "loser": None,
        "decomposition": _decomposition(score),
        "wild_played": _wild_played(score, ctx),
    }
    hand.state = {**hand.state, "indicator": parse_tile(wild)}
    hand.save(update_fields=["result", "state"])
    return table, hand


def test_a_wenzhou_win_marks_the_tiles_a_wild_plays_not_the_wilds_face(
    client_of, alice, bob, outsider
):
    """With 9s the 财神, 12p + 9s read as 123p: the card showed the 财 badge on every tile
    of the wild's kind and the 3p the wild played as a plain tile the player never had."""
    table, hand = wenzhou_self_draw([alice, bob], "123m456m789m12p5p999s1z", wild="9s")
    blocks = presenters.result_blocks(hand.result, "9s")
    marked = [t["tile"] for block in blocks for t in block if t["wild"]]
    assert sorted(marked) == ["3p", "3p", "4p"]  # 12p+9s, 5p+9s9s: 123p 345p
    html = page_of(client_of(alice), table)
    card = re.search(r'<p class="decomposition".*?</p>', html, re.S).group(0)
    assert card.count("tile--wild") == 3
    assert not any(t["white"] for block in blocks for t in block)  # no 白板 in this hand


def test_a_wenzhou_win_marks_a_white_dragon_playing_as_the_wilds_kind(
    client_of, alice, bob, outsider
):
    """With 3p the 财神, a 白板 is an ordinary 3p (RULES.md 9.2.4): the card showed it as a
    plain 3p, a tile the hand never held; it is marked 白, and the real wild 财, on the
    players' card, the spectators' and the history's."""
    table, hand = wenzhou_self_draw([alice, bob], "123m456m789m12p5z45s3p1z", wild="3p")
    blocks = presenters.result_blocks(hand.result, "3p")
    assert [
        (t["tile"], t["wild"], t["white"])
        for block in blocks
        for t in block
        if t["wild"] or t["white"]
    ] == [("3p", False, True), ("3s", True, False)]
    for html in (
        page_of(client_of(alice), table),
        client_of(outsider).get(reverse("tables:watch", args=[table.public_id])).content.decode(),
    ):
        card = re.search(r'<p class="decomposition".*?</p>', html, re.S).group(0)
        assert card.count("tile--white") == 1 and "三筒（白板）" in card
    from lobby import history

    shown = [t["tile"] for block in history.decomposition(hand) for t in block if t["white"]]
    assert shown == ["3p"]  # the hand's history page draws the same reading


def test_each_seat_plate_has_its_players_face_and_beans_in_a_bean_room(client_of, duel, alice, bob):
    from mahjong.ui.avatars import avatar_svg

    html = page_of(client_of(alice), duel)
    opponent = between(html, 'id="mj-opponent"', 'id="mj-rivers"')
    mine = between(html, 'id="mj-hand"', 'id="mj-prompt"')
    assert avatar_svg(bob.public_id, 28) in opponent and avatar_svg(alice.public_id, 28) in mine
    bob.refresh_from_db()
    assert re.search(
        r'data-testid="opp-beans"><span class="sr-only">[^<]+</span>([\d,]+)<', opponent
    )
    assert f"{bob.beans:,}" in between(opponent, 'data-testid="opp-beans"', "</span></span>")
    # a push renders the same plates: the fragments are the page's
    pushed = presenters.fragments(duel, 0)
    assert avatar_svg(bob.public_id, 28) in pushed


def test_a_private_table_shows_no_beans_on_the_plates(client_of, alice, bob):
    from tests.web.tables_support import private_table

    html = page_of(client_of(alice), private_table(alice, bob))
    assert "avatar-art" in html and "mj-beans" not in html


def test_each_players_plate_shows_their_rank_level(client_of, duel, alice, bob):
    from accounts.models import RankLevel

    second = RankLevel.objects.order_by("threshold")[1]
    User.objects.filter(pk=alice.pk).update(rank_score=second.threshold)
    User.objects.filter(pk=bob.pk).update(rank_score=0)
    first = RankLevel.objects.order_by("threshold").first()
    mine = between(page_of(client_of(alice), duel), 'id="mj-hand"', 'id="mj-prompt"')
    assert f'data-testid="my-rank" data-level="{second.level}"' in mine
    assert f"Lv.{second.level} {second.name}" in mine  # the page is in Chinese
    seen_by_bob = between(page_of(client_of(bob), duel), 'id="mj-opponent"', 'id="mj-rivers"')
    assert f'data-testid="opp-rank" data-level="{second.level}"' in seen_by_bob
    bobs = between(page_of(client_of(bob), duel), 'id="mj-hand"', 'id="mj-prompt"')
    if first.threshold == 0:
        assert f'data-level="{first.level}"' in bobs
    else:
        assert "mj-rank" not in bobs
    # a push carries the badge too
    assert f'data-testid="my-rank" data-level="{second.level}"' in presenters.fragments(duel, 0)


def test_a_bots_plate_has_no_rank_badge(client_of, bot_table, alice):
    against_bot = page_of(client_of(alice), bot_table)
    assert 'data-testid="opp-rank"' not in against_bot and 'data-testid="my-rank"' in against_bot
