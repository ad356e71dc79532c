"""Match history: a player's finished hands (public, paginated, filtered by ruleset, room
and result, in a bounded number of queries), the hand page (both final hands, the
winning decomposition, fans, the ledger's bean movements, the commitment and the seed),
the replay page and the wall check. A hand still in play is never shown."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from accounts.models import LedgerEntry
from lobby import history, replays
from mahjong.engine.rulesets import SLUGS
from mahjong.tables import services
from tests.web.tables_support import play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]


def hand_url(hand, name="history:hand"):
    return reverse(name, args=[hand.table.public_id, hand.number])


WON_SEED = "history-12"  # on this wall the timed-out play ends in alice winning on a discard


@pytest.fixture
def won_hand(alice, bob, settings):
    """A whole novice-room hand between alice (seat 0) and bob, won, beans settled."""
    from catalogue.models import RoomTier

    tier = RoomTier.objects.get(slug="novice")
    settings.MAHJONG_TEST_SEED = WON_SEED
    table = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    hand = play_out(table)
    assert hand.result["winner"] is not None and hand.result["fans"], "pick another WON_SEED"
    return hand


# ----- the list ----------------------------------------------------------------------------


def test_my_history_redirects_to_my_public_list_and_needs_a_login(client, client_of, alice):
    response = client.get(reverse("history:mine"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client_of(alice).get(reverse("history:mine"))
    assert response["Location"] == reverse("history:player", args=[alice.public_id])


def test_my_history_keeps_the_filters_and_the_page(client_of, alice):
    response = client_of(alice).get(reverse("history:mine"), {"result": "won", "page": "2"})
    mine = reverse("history:player", args=[alice.public_id])
    assert response["Location"] == f"{mine}?result=won&page=2"


def test_the_list_shows_finished_hands_only_and_is_public(
    client, client_of, won_hand, alice, bob, outsider
):
    in_play = services.open_table(won_hand.table.ruleset, [alice, bob]).current_hand()
    url = reverse("history:player", args=[alice.public_id])
    for viewer in (client, client_of(outsider), client_of(alice)):
        page = viewer.get(url).content.decode()
        assert f'data-hand="{won_hand.table.public_id}/{won_hand.number}"' in page
        assert in_play.table.public_id not in page
        assert hand_url(won_hand) in page and hand_url(won_hand, "history:replay") in page
        assert "<th></th>" not in page  # every column is named, for a screen reader too


def test_rows_carry_the_result_and_the_ledgers_beans(won_hand, alice, bob):
    winner = won_hand.result["winner"]
    for user, seat in ((alice, 0), (bob, 1)):
        [row] = history.page_rows(history.finished_hands(user), user)
        assert row["outcome"] == (history.WON if seat == winner else history.LOST)
        leg = LedgerEntry.objects.get(
            account=user, idempotency_key=history.ledger_key(won_hand.table, won_hand.number)
        )
        assert row["beans"] == leg.amount == won_hand.result["beans"][seat]
        assert row["fan"] == won_hand.result["total"] > 0


def test_filters_by_result_ruleset_and_room(won_hand, bot_table, alice, bob):
    vs_bot = play_out(bot_table)
    won = history.WON if won_hand.result["winner"] == 0 else history.LOST
    lost = history.LOST if won == history.WON else history.WON

    def found(**filters):
        return {h.pk for h in history.finished_hands(alice, **filters)}

    assert found() == {won_hand.pk, vs_bot.pk}
    assert won_hand.pk in found(result=won) and won_hand.pk not in found(result=lost)
    bot_outcome = history.outcome_for(vs_bot.result, 0)
    assert vs_bot.pk in found(result=bot_outcome)
    assert all(vs_bot.pk not in found(result=r) for r in history.RESULTS if r != bot_outcome)
    assert found(tier=won_hand.table.tier.slug) == {won_hand.pk}
    assert found(tier=history.NO_ROOM) == {vs_bot.pk}
    assert found(ruleset=won_hand.table.ruleset.slug) >= {won_hand.pk}
    assert found(ruleset="gb") == set()
    # the same hand from the other seat: bob's result is the opposite
    assert won_hand.pk in {h.pk for h in history.finished_hands(bob, result=lost)}
    assert won_hand.pk not in {h.pk for h in history.finished_hands(bob, result=won)}


def test_a_hand_called_off_reads_called_off_not_drawn(client, client_of, won_hand, alice, bob):
    """The operator closed the table mid-hand (services.close_by_operator): the list and
    the hand page read 管理员中止 / Called off, as the replay's last step does, not 流局;
    the Drawn filter leaves it out and a Called off filter finds it; the table's result,
    above the note that the operator closed it, reads 管理员中止（流局）, not 流局."""
    table = services.open_table(won_hand.table.ruleset, [alice, bob])
    assert services.close_by_operator(table.pk) == "called_off"
    hand = table.current_hand()
    [row] = [
        r
        for r in history.page_rows(history.finished_hands(alice), alice)
        if r["hand"].pk == hand.pk
    ]
    assert row["outcome"] == history.CALLED_OFF
    assert {h.pk for h in history.finished_hands(alice, result=history.DRAWN)} == set()
    assert {h.pk for h in history.finished_hands(alice, result=history.CALLED_OFF)} == {hand.pk}
    listed = client.get(reverse("history:player", args=[alice.public_id])).content.decode()
    row_html = re.search(
        rf'data-hand="{table.public_id}/{hand.number}">.*?</tr>', listed, flags=re.S
    ).group(0)
    assert "管理员中止" in row_html and "流局" not in row_html
    page = client.get(hand_url(hand)).content.decode()
    assert page.count("管理员中止") == 2 and ">流局<" not in page  # both seats
    client.cookies.load({"django_language": "en"})
    page = client.get(hand_url(hand)).content.decode()
    assert page.count(">Called off<") == 2 and ">Drawn<" not in page
    # the players' own table, closed, says so above its result as well
    table_page = client_of(alice).get(table.get_absolute_url()).content.decode()
    assert re.search(r'id="mj-result-h">管理员中止（流局）</h2>', table_page)


def test_hands_called_off_before_their_result_said_so_are_marked_from_their_log(alice, bob):
    """tables' migration 0007 reads the engine's "called_off" event; until it runs, such a
    hand (no key in its result) is still found as drawn, as any older draw is."""
    import importlib

    from django.apps import apps

    from catalogue.models import Ruleset

    migration = importlib.import_module("mahjong.tables.migrations.0008_hand_result_called_off")
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    services.close_by_operator(table.pk)
    hand = table.current_hand()
    del hand.result["called_off"]  # as it was written before the flag
    hand.save()
    assert [h.pk for h in history.finished_hands(alice, result=history.DRAWN)] == [hand.pk]
    migration.mark_called_off(apps, None)
    hand.refresh_from_db()
    assert history.outcome_for(hand.result, 0) == history.CALLED_OFF
    assert [h.pk for h in history.finished_hands(alice, result=history.DRAWN)] == []


def test_the_filter_form_and_pages_keep_the_choices(client, won_hand, alice):
    url = reverse("history:player", args=[alice.public_id])
    page = client.get(url, {"tier": won_hand.table.tier.slug, "result": "bogus"}).content.decode()
    assert f'value="{won_hand.table.tier.slug}" selected' in page
    assert won_hand.table.public_id in page  # an unknown result is no filter
    empty = client.get(url, {"ruleset": "gb"}).content.decode()
    assert won_hand.table.public_id not in empty


def test_a_page_of_fifty_games_takes_a_bounded_number_of_queries(
    client, django_assert_max_num_queries, alice, bob, builtin
):
    from catalogue.models import RoomTier

    tier = RoomTier.objects.get(slug="novice")
    for _ in range(52):  # a quick way to finish a hand: one player leaves (an escape)
        table = services.open_table(
            tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
        )
        services.leave(table, bob)
    url = reverse("history:player", args=[alice.public_id])
    with django_assert_max_num_queries(10):  # 8 today, whatever the page length
        page = client.get(url).content.decode()
    assert page.count('data-hand="') == 50
    assert 'rel="next"' in page
    second = client.get(url, {"page": 2}).content.decode()
    assert second.count('data-hand="') == 2
    # the beans column comes from the ledger: escapes paid the penalty
    assert "result-won" in page and "+" in page


# ----- the hand page -----------------------------------------------------------------------


def test_the_hand_page_shows_both_hands_fans_beans_and_the_proof(client, won_hand):
    page = client.get(hand_url(won_hand)).content.decode()
    state = won_hand.game()
    for seat in state.seats:  # both final hands, tile by tile
        for tile in seat.hand:
            assert f"tiles/{_notation(tile)}.svg" in page
    for fan in won_hand.result["fans"]:
        assert fan["zh"] in page and fan["en"] in page
    decomposition = won_hand.result["decomposition"]
    assert decomposition and 'class="tiles-row decomposition"' in page
    legs = LedgerEntry.objects.filter(
        idempotency_key=history.ledger_key(won_hand.table, won_hand.number)
    )
    assert legs.count() == 2
    for leg in legs:
        assert f"{abs(leg.amount):,}" in page
    assert won_hand.commitment in page and won_hand.seed in page
    assert "python -m mahjong.engine verify" in page


def test_the_houses_rake_is_shown_by_its_role(client, alice, bob, settings):
    """雀神 (quesheng) takes a rake: the posting has a third leg, the house's."""
    from catalogue.models import Ruleset

    settings.MAHJONG_TEST_SEED = "history-rake"
    table = services.open_table(
        Ruleset.objects.get(engine_slug="quesheng"), [alice, bob], beans_per_point=100
    )
    hand = play_out(table)
    legs = LedgerEntry.objects.filter(idempotency_key=history.ledger_key(table, hand.number))
    assert legs.filter(account__kind="house").count() == 1, "pick a wall that ends in a win"
    page = client.get(hand_url(hand)).content.decode()
    assert "平台（台费）" in page and "__house__" not in page


def _notation(kind):
    from mahjong.engine.tiles import format_tile

    return format_tile(kind)


def test_a_hand_in_play_is_not_shown_even_to_its_players(client_of, duel, alice):
    hand = duel.current_hand()
    for name in ("history:hand", "history:replay"):
        response = client_of(alice).get(hand_url(hand, name))
        assert response.status_code == 404
        assert hand.state["seats"][1]["concealed"] and b"concealed" not in response.content
    missing = reverse("history:hand", args=["nosuchtable", 1])
    assert client_of(alice).get(missing).status_code == 404


def test_the_hand_pages_link_to_the_wall_check_which_verifies_it(client, won_hand):
    page = client.get(hand_url(won_hand)).content.decode()
    link = re.search(r'href="(/history/verify/\?[^"]+)"', page).group(1).replace("&amp;", "&")
    query = parse_qs(urlsplit(link).query)
    assert query["seed"] == [won_hand.seed] and query["commitment"] == [won_hand.commitment]
    checked = client.get(link).content.decode()
    assert 'data-ok="true"' in checked
    assert 'data-check="deal"' in checked and 'data-dealt="0"' in checked
    tampered = client.get(link.replace(won_hand.commitment, "0" * 64)).content.decode()
    assert 'data-ok="false"' in tampered


def test_the_wall_checks_mismatches_are_told_in_the_pages_language(client, won_hand):
    line = history.verify_line(won_hand)
    hands = line["deal"]["hands"]
    query = {
        "ruleset": line["ruleset"],
        "seed": line["seed"],
        "commitment": "0" * 64,
        "dealer": line["dealer"],
        "hand0": hands[1],
        "hand1": hands[1],
    }
    url = reverse("history:verify")
    page = client.get(url, query).content.decode()
    assert 'data-ok="false"' in page
    assert "种子的 SHA-256 哈希与公布的承诺值不一致。" in page
    assert "座位 0 的起手牌与重建的发牌不一致。" in page
    assert "published commitment" not in page and "differ from the rebuilt" not in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(url, query).content.decode()
    assert "Seat 0&#x27;s hand differs from the rebuilt deal." in page


def test_the_wall_check_refuses_bad_input_clearly(client):
    url = reverse("history:verify")
    assert "data-ok" not in client.get(url).content.decode()  # an empty form checks nothing
    page = client.get(
        url, {"ruleset": "classic", "seed": "ab" * 32, "commitment": "00", "dealer": "7"}
    ).content.decode()
    assert 'role="alert"' in page and "data-ok" not in page
    for bad in (
        {"ruleset": "nope", "seed": "ab", "commitment": "00"},
        {"ruleset": "classic", "seed": "ab", "commitment": ""},
        {"ruleset": "classic", "seed": "ab", "commitment": "00", "overrides": "[1]"},
        {"ruleset": "classic", "seed": "ab", "commitment": "00", "hand0": "0m"},
    ):
        page = client.get(url, bad).content.decode()
        assert "无法验证" in page or "JSON 对象" in page, bad
        assert "data-ok" not in page
    # what a person gets wrong is told in the page's language, not the engine's English
    for bad, said in (
        ({"seed": "abc", "commitment": "def"}, "选择"),
        (
            {
                "ruleset": "stage",
                "seed": "abc",
                "commitment": "def",
                "dealer": "0",
                "stage": "9",
                "stage_player": "7",
            },
            "关卡",
        ),
        ({"ruleset": "stage", "seed": "abc", "commitment": "def", "stage": "²"}, "关卡"),
    ):  # a digit to str.isdigit, not to int
        page = client.get(url, bad).content.decode()
        alert = re.search(r'role="alert"[^>]*>(.*?)<', page, flags=re.S).group(1)
        assert said in alert and not re.search(r"[A-Za-z]{4,}", alert), alert


def test_pages_speak_chinese_by_default_without_english_left_over(client_of, won_hand, alice):
    c = client_of(alice)
    assert "对局记录" in c.get(reverse("history:mine"), follow=True).content.decode()
    assert "公平性证明" in c.get(hand_url(won_hand)).content.decode()
    # identifiers and data allowed: names, the CLI command and the wall's notation
    allowed = {
        "Online",
        "Alice",
        "English",
        "python",
        "mahjong",
        "engine",
        "verify",
        "Home",
        "JSON",
        "Bob",
        "SHA",
        "End",
        "salt",
        "wall",  # of the hashed texts mahjong-salt|... and mahjong-wall|...
        won_hand.table.public_id,
        *SLUGS,
    }
    for url in (
        reverse("history:player", args=[alice.public_id]),
        hand_url(won_hand, "history:replay") + "?step=3",
        reverse("history:verify"),
    ):
        html = c.get(url).content.decode()
        text = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
        words = re.findall(r"\b[A-Za-z]{3,}\b", text)  # "Won" too
        assert [w for w in words if w not in allowed] == [], url


def test_the_lists_fan_column_is_the_number_of_fan(client_of, won_hand, alice):
    """The column holds a count: 番数. It read 番种 (the kinds of fan), the hand page's
    heading of the fans' names."""
    html = client_of(alice).get(reverse("history:player", args=[alice.public_id])).content
    html = html.decode()
    assert 'class="num">番数</th>' in html and 'data-label="番数"' in html
    assert "番种" not in html


def test_a_stage_hands_page_verifies_with_its_stage(client, alice, settings):
    """关卡: the stage's seeded adjustments of the deal are part of the check."""
    from accounts.models import User
    from catalogue.models import Ruleset

    settings.MAHJONG_TEST_SEED = "rigged5"  # this wall's roll rigs the stage-4 deal
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(
        Ruleset.objects.filter(engine_slug="stage").first(),
        [alice, bot],
        bot_level="strong",
        stage=4,
    )
    hand = play_out(table)
    assert hand.game().stage.bleed
    assert history.verify_line(hand)["stage"] == 4
    page = client.get(hand_url(hand)).content.decode()
    link = re.search(r'href="(/history/verify/\?[^"]+)"', page).group(1).replace("&amp;", "&")
    assert "stage=4" in link
    assert 'data-ok="true"' in client.get(link).content.decode()


def test_the_nav_and_the_profile_link_to_the_history(client, client_of, alice):
    mine = client_of(alice).get("/").content.decode()
    assert f'href="{reverse("history:mine")}"' in mine and "对局记录" in mine
    profile = client.get(alice.get_absolute_url()).content.decode()
    assert f'href="{reverse("history:player", args=[alice.public_id])}"' in profile


def test_pages_follow_the_language_english_second(client, won_hand, alice):
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(reverse("history:player", args=[alice.public_id])).content.decode()
    assert "Alice's games" in page and "Won" in page
    hand = client.get(hand_url(won_hand)).content.decode()
    assert "Fairness proof" in hand and "Final hands" in hand


def test_a_bot_opponent_is_named_without_a_link_to_a_history_it_does_not_have(
    client, bot_table, alice
):
    hand = play_out(bot_table)
    bot = bot_table.seats.get(index=1).user
    bot_list = reverse("history:player", args=[bot.public_id])
    assert client.get(bot_list).status_code == 404
    for url in (reverse("history:player", args=[alice.public_id]), hand_url(hand)):
        page = client.get(url).content.decode()
        assert bot.display_name in page and bot_list not in page


def test_bracketed_notes_take_chinese_brackets(client, won_hand):
    """座位 1（庄家）： on the wall check and （超时） after a timed-out move in the replay;
    "Seat 1 (dealer):" and "(timed out)" in English."""
    line = history.verify_line(won_hand)
    hands = line["deal"]["hands"]
    query = {
        "ruleset": line["ruleset"],
        "seed": line["seed"],
        "commitment": line["commitment"],
        "dealer": line["dealer"],
        "hand0": hands[0],
        "hand1": hands[1],
    }
    dealer = line["dealer"]
    page = client.get(reverse("history:verify"), query).content.decode()
    assert f"座位 {dealer}（庄家）：" in page and " (庄家)" not in page
    steps = replays.rebuild(won_hand)
    timed = next(i for i, s in enumerate(steps) if s.by == "timeout")
    replay = client.get(hand_url(won_hand, "history:replay"), {"step": timed}).content.decode()
    assert "（超时）" in replay and "(超时)" not in replay
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(reverse("history:verify"), query).content.decode()
    assert f"Seat {dealer} (dealer):" in page
    replay = client.get(hand_url(won_hand, "history:replay"), {"step": timed}).content.decode()
    assert "(timed out)" in replay


def test_a_stage_hands_beans_count_its_stake(client, client_of, alice):
    """关卡: the stake is posted before the hand (its own ledger key) and paid back inside
    a won hand's settlement: a hand's beans are both, not the settlement alone (a lost
    hand cost its stake, not nothing; a won one gained the score, not score + stake)."""
    from mahjong.engine.scripted import scripted_hand
    from mahjong.engine.state import Session
    from mahjong.stages import services as stages

    stake = 300  # stage 1's stake at the default bean per point
    lost = stages.play(alice)
    services.leave(lost, alice)
    won = stages.play(alice)
    hand = won.current_hand()
    state = scripted_hand(
        "stage",
        session=Session(dealer=0, stage=1, stage_player=0),
        dealer=0,
        dealer_hand="123m456p789s11122z",
        other_hand="19m19p19s1234567z",
    )
    hand.state, hand.commitment = state.to_dict(), state.commitment
    hand.save()
    services.act(won, alice, "hu", hand.version)
    hand = won.current_hand()
    score = hand.result["stage"]["paid"]
    assert score > 0
    rows = history.page_rows(history.finished_hands(alice), alice)
    assert [(r["table"], r["beans"]) for r in rows] == [(won, score), (lost, -stake)]
    assert (
        sum(
            e.amount
            for e in history.bean_movements(lost.current_hand())
            if e.account_id == alice.pk
        )
        == -stake
    )
    assert LedgerEntry.objects.filter(account=alice).count() == 4  # grant, 2 stakes, the win
    # the site's own ledger notes are in the reader's language, on the hand and the profile
    hand_page = client.get(hand_url(lost.current_hand())).content.decode()
    profile = client_of(alice).get(reverse("accounts:profile"), follow=True).content.decode()
    for page in (hand_page, profile):
        assert "关卡押分" in page and "stage stake" not in page
    assert "关卡得分" in profile and "stage hand" not in profile


def test_an_empty_history_says_why_rather_than_that_no_game_matches(client, client_of, alice, bob):
    """A new player has no finished game: not "no game matches" (nothing was filtered)."""
    mine = client_of(alice).get(reverse("history:player", args=[alice.public_id])).content
    mine = mine.decode()
    assert "还没有已结束的对局" in mine and "没有符合条件" not in mine
    assert f'href="{reverse("lobby:home")}"' in mine
    theirs = client.get(reverse("history:player", args=[bob.public_id])).content.decode()
    assert f"{bob.display_name} 还没有已结束的对局。" in theirs and "你打完" not in theirs
    filtered = client_of(alice).get(reverse("history:mine"), {"result": "won"}, follow=True)
    assert "没有符合条件的已结束对局。" in filtered.content.decode()
    english = (
        client_of(alice)
        .get(reverse("history:player", args=[alice.public_id]), HTTP_ACCEPT_LANGUAGE="en")
        .content.decode()
    )
    assert "No finished games yet" in english


def test_the_hand_pages_melds_are_named_in_the_pages_language(client, won_hand):
    """A meld's tooltip (its title, read out by a screen reader) said the engine's verb,
    title="pon", on a Chinese page as on an English one; the replay says 碰 / Pong."""
    assert [str(m) for m in won_hand.game().seats[0].melds] == ["pon 666m"]
    page = client.get(hand_url(won_hand)).content.decode()
    assert 'class="meld" title="碰"' in page and 'title="pon"' not in page
    client.cookies.load({"django_language": "en"})
    page = client.get(hand_url(won_hand)).content.decode()
    assert 'class="meld" title="Pong"' in page


def test_the_hand_page_names_fans_as_the_result_card_does(client_of, won_hand, alice):
    """One column in the page's language (it had 中文 and English columns): 清一色 with the
    English name as its title on the Chinese page, Full flush (清一色) on the English one."""
    c = client_of(alice)
    for language, name_of in (
        ("zh-hans", lambda f: f["zh"]),
        ("en", lambda f: f"{f['en']} ({f['zh']})"),
    ):
        c.post("/accounts/language/", {"language": language, "next": "/"})
        page = c.get(hand_url(won_hand)).content.decode()
        assert "<th>English</th>" not in page
        for fan in won_hand.result["fans"]:
            row = re.search(rf'<tr data-fan="{fan["key"]}">(.*?)</tr>', page, re.S).group(1)
            name, value = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
            assert re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", name)).strip() == name_of(fan)
            assert "fan-value" in row


def test_a_stage_hand_left_is_tagged_left_not_escape(client, client_of, alice):
    """关卡 has no escape (RULES.md 5.1): leaving loses the stake, as the stage table says.
    The history list and the hand page tagged such a hand 逃跑 (escape)."""
    from mahjong.stages import services as stages

    table = stages.play(alice)
    services.leave(table, alice)
    hand = table.current_hand()
    assert hand.result["kind"] == "escape"
    rows = history.page_rows(history.finished_hands(alice), alice)
    assert [r["kind"] for r in rows] == ["left"]
    listed = client_of(alice).get(reverse("history:mine"), follow=True).content.decode()
    page = client.get(hand_url(hand)).content.decode()
    for html in (listed, page):
        assert "中途离开" in html and "逃跑" not in html


def test_the_wall_check_refuses_deeply_nested_or_huge_input_with_a_clear_error(client):
    """1,500 levels of nested JSON were an uncaught RecursionError: a 500 for a visitor."""
    url = reverse("history:verify")
    base = {"ruleset": "classic", "seed": "ab" * 32, "commitment": "00" * 32}
    for bad in (
        {**base, "overrides": "[" * 1500 + "]" * 1500},
        {**base, "overrides": '{"fan_values": {"a": [[[[[1]]]]]}}'},
        {**base, "overrides": '{"x": "' + "y" * 6000 + '"}'},
        {**base, "hand0": "1m" * 5000},
    ):
        response = client.get(url, bad)
        assert response.status_code == 200
        alert = re.search(r'role="alert"[^>]*>(.*?)<', response.content.decode(), re.S).group(1)
        assert "太长" in alert or "过深" in alert or "最多" in alert, alert
    # brackets inside a string are text, not nesting: the engine judges this one
    page = client.get(url, {**base, "overrides": '{"cap": "[[[[[[[[["}'}).content.decode()
    assert "过深" not in page and "无法验证" in page
