"""Stage mode on the web: the lobby entry, the stage screen, progress saved and resumed,
stakes in beans through the ledger, hands on a live table against the strong computer
(clear, fail, draw or loss), and the offer controls of a stage table."""

import pytest
from django.template import Context, Template
from django.urls import reverse

from accounts.models import LedgerEntry
from mahjong.engine import stage_run
from mahjong.engine.game import legal_actions
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.stage_run import StageRun
from mahjong.engine.state import Session
from mahjong.engine.tiles import format_tile
from mahjong.stages import services
from mahjong.stages.leaderboard import stage_leaderboard
from mahjong.stages.models import StageProgress, StageSettings
from mahjong.tables import presenters
from mahjong.tables import services as tables
from mahjong.tables.models import Table
from tests.web.tables_support import play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]


def run_of(user) -> StageRun:
    return services.run_of(services.progress_for(user))


def set_run(user, **fields):
    progress = services.progress_for(user)
    progress.run = StageRun(**fields).to_dict()
    progress.save()


def script(table, stage=1, dealer=0, **hands):
    """Replace the table's fresh hand by a scripted one (same version, the table's own
    ruleset and overrides): a test set-up."""
    hand = table.current_hand()
    state = scripted_hand(
        table.ruleset.engine(),
        session=Session(dealer=dealer, stage=stage, stage_player=0),
        dealer=dealer,
        **hands,
    )
    hand.state, hand.commitment = state.to_dict(), state.commitment
    hand.save()
    return hand


def test_the_lobby_links_to_stage_mode(alice, client_of):
    page = client_of(alice).get(reverse("lobby:home")).content.decode()
    assert reverse("stages:home") in page and 'data-testid="stage-mode-link"' in page


def test_the_stage_screen_shows_stage_pass_score_stake_and_features(alice, client_of):
    page = client_of(alice).get(reverse("stages:home"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    html = page.content.decode()
    assert 'data-stage="1"' in html and 'data-score="1500"' in html
    assert "4,000" in html and "1,500" in html and "300" in html
    assert "三连庄拍分" in html and "役满型配牌大出血" in html  # features, and the stage table
    assert 'data-testid="stage-play"' in html
    assert "过关分数" in html and "每局押分" in html  # zh-hans is the default language
    assert "起始换牌、五张海底摸牌" in html  # a stage's features, joined as Chinese joins a list


@pytest.mark.parametrize("status", ["cleared", "failed"])
def test_a_finished_attempt_promises_no_streak_bonus(alice, client_of, status):
    """Two dealer wins in a row, then the stage cleared (or failed): the screen still read
    "Three in a row (三连庄): your next dealer win scores double", but the next stage (or
    the retry) starts from a fresh run, its streak 0."""
    promise = "三连庄：下一次坐庄胡牌得分翻倍"
    set_run(alice, stage=1, score=4_200 if status == "cleared" else 0, status=status, streak=2)
    html = client_of(alice).get(reverse("stages:home")).content.decode()
    assert 'data-testid="stage-streak"' not in html and promise not in html
    set_run(alice, stage=1, score=1_500, status="ready", streak=2)
    html = client_of(alice).get(reverse("stages:home")).content.decode()
    assert promise in html
    step = "advance" if status == "cleared" else "retry"
    set_run(alice, stage=1, score=4_200 if status == "cleared" else 0, status=status, streak=2)
    client_of(alice).post(reverse(f"stages:{step}"))
    assert run_of(alice).streak == 0  # what the promise would have been broken by


def test_the_stage_table_in_english_names_and_joins_the_features_in_english(alice, client_of):
    client = client_of(alice)
    client.cookies.load({"django_language": "en"})
    html = client.get(reverse("stages:home")).content.decode()
    assert "Exchange tiles at the start, Five extra draws at the end (五张海底摸牌)" in html
    assert "Pick from the wall and swap (搓牌, 游戏中换牌)" in html
    assert "、" not in html
    assert "haidi" not in html.lower()  # pinyin no English player reads ("Five haidi draws")


def test_playing_opens_a_table_against_the_strong_computer_and_places_the_stake(alice, client_of):
    response = client_of(alice).post(reverse("stages:play"))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    seats = list(table.seats.order_by("index"))
    assert seats[0].user == alice and seats[1].user.is_bot and seats[1].bot_level == "strong"
    state = table.current_hand().game()
    assert state.session.stage == 1 and state.session.stage_player == 0
    assert len(state.live) == 44 and len(state.unused) + len(state.reserve) == 65
    run = run_of(alice)
    assert run.status == stage_run.IN_HAND and run.score == 1200
    alice.refresh_from_db()
    assert alice.beans == 20_000 - 300
    stake = LedgerEntry.objects.get(account=alice, idempotency_key__startswith="stage-stake:")
    assert stake.amount == -300 and stake.ref == table.public_id


def test_the_top_bar_of_a_stage_table_shows_the_climb_not_session_points(alice, client_of):
    """During the hand: the stage, its score (the stake placed) against the pass score."""
    client_of(alice).post(reverse("stages:play"))
    table = Table.objects.get()
    html = client_of(alice).get(table.get_absolute_url()).content.decode()
    bar = html.split('data-testid="stage-score">', 1)[1].split("</span>", 1)[0]
    assert bar == "第 1 关：你的分数 1,200，过关需 4,000。 本局押分：300"
    english = client_of(alice)
    english.cookies.load({"django_language": "en"})
    html = english.get(table.get_absolute_url()).content.decode()
    assert "Stage 1: your score 1,200, 4,000 to pass. Stake in play: 300" in html


def test_progress_resumes_after_a_reload_or_another_session(alice, client_of):
    client_of(alice).post(reverse("stages:play"))
    table = Table.objects.get()
    later = client_of(alice)  # the next day: a new session
    html = later.get(reverse("stages:home")).content.decode()
    assert 'data-testid="stage-resume"' in html and table.get_absolute_url() in html
    assert later.post(reverse("stages:play"))["Location"] == table.get_absolute_url()
    assert Table.objects.count() == 1 and run_of(alice).score == 1200


def test_a_hand_settles_into_the_climb_whatever_its_outcome(alice):
    table = services.play(alice)
    hand = play_out(table)
    outcome = hand.game().outcome
    run = run_of(alice)
    assert run.status == stage_run.READY and run.hands == 1
    stage = hand.result["stage"]
    if outcome.kind == "draw":
        assert run.score == 1500 and stage["paid"] == 0
    elif outcome.winner == 0:
        assert run.score == 1500 + run.last_score and run.last_score >= 100
    else:
        assert run.score == 1200
    alice.refresh_from_db()
    assert alice.beans == 20_000 - 1500 + run.score  # beans follow the score one to one
    # the next hand places the next stake
    tables.ready_next(table, alice)
    assert table.current_hand().number == 2 and run_of(alice).status == stage_run.IN_HAND


def test_a_win_clears_the_stage_pays_out_and_keeps_the_best(alice, client_of):
    set_run(alice, stage=1, score=3999)
    table = services.play(alice)
    hand = script(table, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "hu", hand.version)
    run = run_of(alice)
    assert run.status == stage_run.CLEARED and run.score == 3999 + run.last_score
    assert run.last_score >= 10_000  # 天和, a yakuman: N × 10,000
    result = table.current_hand().result
    assert result["stage"]["status"] == "cleared" and result["points"] == run.last_score
    alice.refresh_from_db()
    assert alice.beans == 20_000 - 300 + 300 + run.last_score
    assert stage_leaderboard(5) == [(alice, 1, 1)]
    client = client_of(alice)
    html = client.get(reverse("stages:home")).content.decode()
    assert 'data-testid="stage-cleared"' in html and 'data-testid="stage-next"' in html
    # the table's next hand is refused (the climb moves on from the stage screen)
    tables.ready_next(table, alice)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and "1" in table.note  # "stage 1 cleared"
    client.post(reverse("stages:advance"))
    run = run_of(alice)
    assert (run.stage, run.score, run.status, run.hands) == (2, 3000, stage_run.READY, 1)


def test_a_stage_cleared_keeps_the_hands_of_the_climb_as_the_leaderboard_ranks(alice, client_of):
    """Stage 2 cleared at its first hand, seven hands into the climb: the best result and
    the stage board count the climb's 8 hands (a lucky retry is not a quick climb), and
    the screen says they are the climb's, not the stage's."""
    set_run(alice, stage=2, score=9_999, hands=7)
    table = services.play(alice)
    hand = script(table, stage=2, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "pass", hand.version)  # stage 2's opening exchange: kept
    tables.act(table, alice, "hu", hand.version + 1)
    run = run_of(alice)
    assert run.status == stage_run.CLEARED and (run.hands, run.stage_hands) == (8, 1)
    progress = StageProgress.objects.get(user=alice)
    assert (progress.best_stage, progress.best_hands) == (2, 8)
    assert stage_leaderboard(5) == [(alice, 2, 8)]
    client = client_of(alice)
    assert "通过第 2 关，闯关共用 8 局。" in client.get(reverse("stages:home")).content.decode()
    client.cookies.load({"django_language": "en"})
    html = client.get(reverse("stages:home")).content.decode()
    assert "Stage 2 cleared, 8 hands into the climb." in html


def test_a_hand_pays_out_at_the_rate_its_stake_was_placed_at(alice):
    """An operator who changes beans per stage point mid-hand changes the next hand's
    stake, not this hand's payout (it was staked at the old rate)."""
    set_run(alice, stage=1, score=3999)
    table = services.play(alice)  # staked at 1 bean per point: 300
    StageSettings.objects.filter(pk=1).update(beans_per_point=10)
    hand = script(table, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "hu", hand.version)
    run = run_of(alice)
    alice.refresh_from_db()
    assert alice.beans == 20_000 - 300 + 300 + run.last_score
    assert table.current_hand().result["beans"] == [run.last_score, 0]
    stakes = LedgerEntry.objects.filter(account=alice, idempotency_key__startswith="stage-stake:")
    assert list(stakes.values_list("amount", flat=True)) == [-300]


def test_a_dealer_win_doubled_by_the_streak_bonus_says_so_on_the_result_panel(alice, client_of):
    """三连庄拍分 (RULES.md 5.4.1, 'the UI shows 三连庄'): the third dealer win in a row
    scores double, and the result panel names the bonus; a win that is not doubled does
    not."""
    set_run(alice, stage=1, score=1500, streak=2)
    table = services.play(alice)
    hand = script(table, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "hu", hand.version)
    run = run_of(alice)
    assert run.streak == 3 and run.last_score == 20_000  # 天和 10,000, doubled
    client = client_of(alice)
    html = client.get(table.get_absolute_url()).content.decode()
    assert "三连庄拍分：坐庄连胡 3 局，本局得分翻倍。" in html
    client.cookies.load({"django_language": "en"})
    html = client.get(table.get_absolute_url()).content.decode()
    bonus = "Dealer streak bonus (三连庄): 3 dealer wins in a row, the hand score is doubled."
    assert bonus in html
    # the first dealer win of a streak: no bonus, nothing said
    client.post(reverse("stages:advance"))
    table = services.play(alice)
    hand = script(table, stage=2, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "pass", hand.version)  # stage 2's opening exchange: kept
    tables.act(table, alice, "hu", hand.version + 1)
    assert run_of(alice).streak == 1
    html = client.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="stage-result"' in html and "stage-streak-bonus" not in html


def test_the_note_of_a_stage_table_closed_by_the_climb_reads_in_the_readers_language(
    alice, client_of
):
    """The table closes when the next hand is refused (the stage cleared): its note is
    stored untranslated like every table note, so the page reads it in the viewer's
    language, not in the one of the request that closed it."""
    set_run(alice, stage=1, score=3999)
    table = services.play(alice)
    hand = script(table, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "hu", hand.version)
    tables.ready_next(table, alice)
    client = client_of(alice)
    html = client.get(table.get_absolute_url()).content.decode()
    assert "第 1 关已通过！请到关卡页面进入下一关。" in html
    client.cookies.load({"django_language": "en"})
    html = client.get(table.get_absolute_url()).content.decode()
    assert "Stage 1 cleared! Go on to the next stage from the stage screen." in html


def test_a_computer_win_loses_the_stake_and_can_fail_the_stage(alice, client_of):
    set_run(alice, stage=1, score=500)
    table = services.play(alice)
    hand = script(table, dealer=1, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    bot = table.seats.get(index=1).user
    tables.act(table, bot, "hu", hand.version)
    run = run_of(alice)
    assert run.status == stage_run.FAILED and run.score == 200
    client = client_of(alice)
    html = client.get(reverse("stages:home")).content.decode()
    assert 'data-testid="stage-failed"' in html and 'data-testid="stage-retry"' in html
    assert client.post(reverse("stages:play")).status_code == 302  # refused, back to the screen
    assert Table.objects.count() == 1
    client.post(reverse("stages:retry"))
    assert run_of(alice) == StageRun(stage=1, score=1500, hands=1)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED  # the failed attempt's table closed


def test_the_hand_result_says_where_the_climb_stands_and_leads_to_the_stage_screen(
    alice, client_of
):
    """The result panel of a stage hand: the stage's score against its pass score and,
    once the stage is cleared (or failed), the way to the stage screen instead of a next
    hand the table would refuse; the table closed, the stage screen again (not the lobby)."""
    set_run(alice, stage=1, score=3999)
    table = services.play(alice)
    hand = script(table, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "hu", hand.version)
    client = client_of(alice)
    client.cookies.load({"django_language": "en"})
    html = client.get(table.get_absolute_url()).content.decode()
    score = f"{run_of(alice).score:,}"
    assert 'data-stage-status="cleared"' in html and "Stage 1 cleared!" in html
    assert f"Stage 1: your score {score}, 4,000 to pass." in html
    stages = reverse("stages:home")
    assert f'href="{stages}" data-testid="to-stages"' in html
    assert 'data-testid="next-hand"' not in html
    tables.ready_next(table, alice)  # a next hand asked for anyway: the table closes
    client.cookies.load({"django_language": "zh-hans"})
    html = client.get(table.get_absolute_url()).content.decode()
    assert "第 1 关通过！" in html and "返回关卡页面" in html
    assert 'data-testid="to-stages"' in html and 'data-testid="to-lobby"' not in html


def test_a_stage_hand_that_keeps_the_climb_going_shows_the_score_and_the_next_hand(
    alice, client_of
):
    table = services.play(alice)
    hand = script(table, dealer=1, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, table.seats.get(index=1).user, "hu", hand.version)
    client = client_of(alice)
    client.cookies.load({"django_language": "en"})
    html = client.get(table.get_absolute_url()).content.decode()
    assert 'data-stage-status="ready"' in html
    assert "Stage 1: your score 1,200, 4,000 to pass." in html
    assert 'data-testid="next-hand"' in html and 'data-testid="to-stages"' not in html


def test_the_watch_page_says_whether_the_stage_was_cleared_or_failed(
    alice, make_player, outsider, client_of
):
    """A spectator's result of a stage hand named the winner only: whether the hand
    cleared the stage or failed it was on the player's own panel alone."""
    set_run(alice, stage=1, score=3999)
    table = services.play(alice)
    hand = script(table, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(table, alice, "hu", hand.version)
    dora = make_player("dora", nickname="Dora")
    set_run(dora, stage=1, score=500)
    lost = services.play(dora)
    hand = script(lost, dealer=1, dealer_hand="123m456p789s11122z", other_hand="19m19p19s1234567z")
    tables.act(lost, lost.seats.get(index=1).user, "hu", hand.version)
    watcher = client_of(outsider)
    cleared = watcher.get(reverse("tables:watch", args=[table.public_id])).content.decode()
    failed = watcher.get(reverse("tables:watch", args=[lost.public_id])).content.decode()
    assert 'data-stage-status="cleared"' in cleared and "Alice 通过了第 1 关！" in cleared
    assert 'data-stage-status="failed"' in failed
    assert "第 1 关闯关失败：Dora 的分数不够押分。" in failed
    assert "第 1 关：Dora 的分数 200，过关需 4,000。" in failed
    watcher.cookies.load({"django_language": "en"})
    cleared = watcher.get(reverse("tables:watch", args=[table.public_id])).content.decode()
    failed = watcher.get(reverse("tables:watch", args=[lost.public_id])).content.decode()
    score = f"{run_of(alice).score:,}"
    assert "Alice cleared stage 1!" in cleared
    assert f"Stage 1: Alice's score {score}, 4,000 to pass." in cleared
    assert "Stage 1 failed: Dora's score cannot cover the stake." in failed


def test_the_watch_page_of_a_stage_hand_left_speaks_of_the_stake_not_an_escape(
    alice, outsider, client_of
):
    """Stage mode has no escape (RULES.md 5.1), as the player's panel and the history
    say: the spectator read 'Alice escaped (逃跑)'."""
    table = services.play(alice)
    tables.leave(table, alice)
    watcher = client_of(outsider)
    html = watcher.get(reverse("tables:watch", args=[table.public_id])).content.decode()
    assert "Alice 中途离开，本局押分已输掉。" in html and "逃跑" not in html
    assert 'data-stage-status="ready"' in html  # the climb goes on: neither cleared nor failed
    watcher.cookies.load({"django_language": "en"})
    html = watcher.get(reverse("tables:watch", args=[table.public_id])).content.decode()
    assert "Alice left the hand: its stake is lost." in html and "escaped" not in html


def test_leaving_a_stage_hand_loses_only_its_stake(alice):
    table = services.play(alice)
    tables.leave(table, alice)
    run = run_of(alice)
    assert run.status == stage_run.READY and run.score == 1200
    assert services.live_table(StageProgress.objects.get(user=alice)) is None


def test_leaving_a_stage_table_speaks_of_the_stake_not_an_escape_penalty(alice, client_of, htmx):
    """A stage hand has no escape penalty (RULES.md 5.1): leaving loses the stake. The
    Leave button's confirmation and the flash say so, and the way out is the stage screen
    (the climb goes on there), not the lobby."""
    client = client_of(alice)
    client.post(reverse("stages:play"))
    table = Table.objects.get()
    html = client.get(table.get_absolute_url()).content.decode()
    assert "对局中离开将输掉本局押分。确定离开吗？" in html and "罚分" not in html
    response = client.post(reverse("tables:leave", args=[table.public_id]), headers=htmx())
    assert response["HX-Redirect"] == reverse("stages:home")
    html = client.get(reverse("stages:home")).content.decode()
    assert "你在对局中离开，本局押分已输掉。" in html and "逃跑" not in html
    # news, not a success: it was a warning, which the site draws green as a success
    assert '<div class="flash info" role="status">你在对局中离开，本局押分已输掉。</div>' in html
    assert run_of(alice).score == 1200
    # back at the table's address, its result says the same, not 你逃跑了 (an escape)
    html = client.get(table.get_absolute_url()).content.decode()
    assert "你在对局中离开，本局押分已输掉。" in html and "逃跑" not in html


def test_a_player_without_beans_for_the_stake_is_told(alice, make_player):
    poor = make_player("poor", beans=100)
    with pytest.raises(services.StageError, match="300"):
        services.play(poor)
    assert Table.objects.count() == 0 and run_of(poor).status == stage_run.READY


# ----- the offer controls ---------------------------------------------------------------


def offer_html(table, seat=0):
    context = presenters.context_for(table, seat)
    return Template("{% load stages %}{% stage_offer %}").render(Context(context))


def test_the_start_exchange_is_chosen_on_the_offer_panel(alice, client_of, htmx):
    set_run(alice, stage=2, score=3000)
    table = services.play(alice)
    hand = table.current_hand()
    state = hand.game()
    assert state.phase == "exchange"
    html = offer_html(table)
    assert 'data-offer="exchange"' in html and html.count('name="tile"') == 14 - (state.dealer != 0)
    assert offer_html(table, seat=1).strip() == ""  # the computer's view holds no offer
    client = client_of(alice)
    assert client.get(table.get_absolute_url()).status_code == 200  # the table page, too
    url = reverse("stages:offer", args=[table.public_id])
    for bad in (["9z"], [], ["1m1m1m1m1m"]):  # not a tile, none, more than the hand holds
        wrong = client.post(
            url, {"kind": "exchange", "tile": bad, "version": hand.version}, headers=htmx()
        )
        assert wrong.status_code == 200 and table.current_hand().version == hand.version
        assert 'id="mj-notice"' in wrong.content.decode()
    tiles = [format_tile(t) for t in state.seat(0).concealed[:2]]
    client.post(url, {"kind": "exchange", "tile": tiles, "version": hand.version}, headers=htmx())
    after = table.current_hand().game()
    assert after.phase != "exchange" and after.stage.exchanged == 2
    assert offer_html(table).strip() == ""


def test_the_offer_endpoint_is_for_the_seated_player(alice, bob, client_of):
    table = services.play(alice)
    url = reverse("stages:offer", args=[table.public_id])
    refused = client_of(bob).post(url, {"kind": "exchange", "tile": ["1m"], "version": 1})
    assert refused.status_code == 403


def test_cuo_shows_the_live_wall_and_takes_a_tile(alice, client_of):
    from catalogue.models import Ruleset

    Ruleset.objects.filter(engine_slug="stage").update(overrides={"options": {"p_cuo": 1.0}})
    set_run(alice, stage=3, score=5000)
    table = services.play(alice)
    for _ in range(40):  # pass the exchange, then let the timers play until alice's offer
        state = table.current_hand().game()
        if state.stage.offer == "cuo" and state.turn == 0:
            break
        hand = table.current_hand()
        assert tables.advance(hand.pk, hand.version)
    html = offer_html(table)
    assert 'data-offer="cuo"' in html
    kinds = sorted(set(state.live))
    assert html.count('data-action="cuo ') == len(kinds)
    action = next(a for a in legal_actions(state, 0) if a.verb == "cuo")
    hand = table.current_hand()
    client_of(alice).post(
        reverse("tables:act", args=[table.public_id]),
        {"action": str(action), "version": hand.version},
    )
    assert table.current_hand().game().seat(0).drawn == action.tile


def test_the_in_game_swap_is_chosen_on_the_offer_panel(alice, client_of, htmx):
    from catalogue.models import Ruleset

    Ruleset.objects.filter(engine_slug="stage").update(
        overrides={"options": {"p_cuo": 0.0, "p_swap": 1.0}}
    )
    set_run(alice, stage=3, score=5000)
    table = services.play(alice)
    # a scripted wall (no ready hand on either side) so the timers' play is the same on
    # every run: a random deal could end the hand before alice's first offer
    script(table, stage=3, dealer_hand="147m258p369s12345z", other_hand="147m258p369s6677z")
    for _ in range(40):  # let the timers play until alice is offered a triplet
        state = table.current_hand().game()
        if state.stage.offer == "swap" and state.turn == 0:
            break
        hand = table.current_hand()
        assert tables.advance(hand.pk, hand.version)
    html = offer_html(table)
    kind = format_tile(state.stage.swap_kind)
    assert 'data-offer="swap"' in html and html.count(f'data-face="{kind}"') >= 3
    hand = table.current_hand()
    url = reverse("stages:offer", args=[table.public_id])
    give = [format_tile(t) for t in state.seat(0).hand[:3]]
    two = client_of(alice).post(
        url, {"kind": "swap", "tile": give[:2], "version": hand.version}, headers=htmx()
    )
    assert "请正好选择 3 张牌" in two.content.decode()  # the page's language, not the engine's
    assert table.current_hand().version == hand.version
    client_of(alice).post(url, {"kind": "swap", "tile": give, "version": hand.version})
    after = table.current_hand().game()
    assert after.stage.swaps == 1 and after.seat(0).hand.count(state.stage.swap_kind) >= 3


def test_admin_lists_progress_and_stage_settings(alice, admin_client):
    services.progress_for(alice)
    assert admin_client.get(reverse("admin:stages_stageprogress_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:stages_stagesettings_changelist")).status_code == 200
    from mahjong.stages.models import StageSettings

    url = reverse("admin:stages_stagesettings_change", args=[StageSettings.load().pk])
    page = admin_client.get(url)
    assert page.status_code == 200 and "p_cuo = 0.1" in page.content.decode()


def test_a_finished_stage_hand_with_offers_replays_to_its_recorded_state(alice):
    from lobby.replays import rebuild

    set_run(alice, stage=2, score=3000)
    table = services.play(alice)
    hand = table.current_hand()
    give = format_tile(hand.game().seat(0).concealed[0])
    tables.act(table, alice, f"exchange {give}", hand.version)
    hand = play_out(table)
    steps = rebuild(hand)
    assert steps[1].action == f"exchange {give}" and steps[1].state.stage.exchanged == 1
    assert steps[-1].state.to_dict() == hand.game().to_dict()


def test_the_stake_in_beans_and_the_climbs_hands_take_chinese_brackets(alice, client_of):
    """300（300 欢乐豆） in Chinese, 300 (300 beans) in English: the brackets and the space
    belong to the language, so they are in the translated text."""
    client = client_of(alice)
    html = client.get(reverse("stages:home")).content.decode()
    assert '300<span class="muted">（300 欢乐豆）</span>' in html
    assert (
        '<span class="muted">（本次闯关共 0 局）</span>' in html
        and "(" not in html.split('data-testid="stage-stake"')[1].split("</dd>")[0]
    )
    client.cookies.load({"django_language": "en"})
    html = client.get(reverse("stages:home")).content.decode()
    assert '300<span class="muted"> (300 beans)</span>' in html
    assert '<span class="muted"> (0 in this climb)</span>' in html


def test_a_best_of_one_hand_reads_in_the_singular(alice, client_of):
    progress = services.progress_for(alice)
    progress.best_stage, progress.best_hands = 1, 1
    progress.save()
    client = client_of(alice)
    client.cookies.load({"django_language": "en"})
    page = lambda: client.get(reverse("stages:home")).content.decode()  # noqa: E731
    # The climb's hands, as the leaderboard ranks by: it read "cleared in 8 hands" for a
    # stage cleared at its first hand, seven hands into the climb.
    assert "Stage 1 cleared, 1 hand into the climb." in page()
    progress.best_hands = 3
    progress.save()
    assert "Stage 1 cleared, 3 hands into the climb." in page()
    client.cookies.load({"django_language": "zh-hans"})
    assert "通过第 1 关，闯关共用 3 局。" in page()


@pytest.mark.parametrize(
    "best_stage, best_hands, field, english, chinese",
    [
        (99, 5, "best_stage", "There are 4 stages: at most 4.", "共有 4 关：最多为 4。"),
        (
            2,
            "",
            "best_hands",
            "A stage cleared took at least 1 hand: say how many.",
            "通过一关至少需要 1 局：请填写局数。",
        ),
        (
            0,
            7,
            "best_hands",
            "No stage is cleared: leave this empty.",
            "尚未通过任何一关：此处请留空。",
        ),
    ],
)
def test_a_best_stage_result_the_climb_cannot_have_is_refused_in_the_admin(
    alice, admin_client, best_stage, best_hands, field, english, chinese
):
    """Saved, the stage leaderboard showed "Stage 99" or a stage "cleared in None hands"."""
    progress = services.progress_for(alice)
    url = reverse("admin:stages_stageprogress_change", args=[progress.pk])
    data = {"user": alice.pk, "best_stage": best_stage, "best_hands": best_hands}
    for language, said in (("en", english), ("zh-hans", chinese)):
        admin_client.cookies.load({"django_language": language})
        response = admin_client.post(url, data)
        assert response.context["adminform"].form.errors[field] == [said]
    progress.refresh_from_db()
    assert (progress.best_stage, progress.best_hands) == (0, None)
    assert admin_client.post(url, {**data, "best_stage": 3, "best_hands": 12}).status_code == 302


def test_the_admin_says_a_climbs_status_in_its_language_and_keeps_whose_it_is(
    alice, bob, admin_client
):
    """The list showed the engine's "ready" in the Chinese admin too, and the page let an
    operator move a climb (its stake, its table) to another account by its id."""
    progress = services.progress_for(alice)
    url = reverse("admin:stages_stageprogress_changelist")
    for language, said in (("zh-hans", "局间"), ("en", "between hands")):
        admin_client.cookies.load({"django_language": language})
        cells = admin_client.get(url).content.decode()
        assert f'<td class="field-status">{said}</td>' in cells
    change = reverse("admin:stages_stageprogress_change", args=[progress.pk])
    assert 'name="user"' not in admin_client.get(change).content.decode()
    admin_client.post(change, {"user": bob.pk, "best_stage": 0, "best_hands": ""})
    assert StageProgress.objects.get(pk=progress.pk).user == alice
