"""The 关卡 offers on the live table page: the player's open 起始换牌 / 搓牌 / 游戏中换牌
is the offer panel ({% stage_offer %}) inside the prompt partial, never a row of prompt
buttons (游戏中换牌 alone lists up to 364 choices of three tiles); the computer's seat
gets no panel, and the panel's choice plays through the table."""

import pytest
from django.urls import reverse

from catalogue.models import Ruleset
from mahjong.engine.stage import stage_level
from mahjong.engine.stage_run import StageRun
from mahjong.engine.tiles import format_tile, tile_name
from mahjong.stages import services
from mahjong.tables import presenters
from mahjong.tables import services as tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]


@pytest.fixture(autouse=True)
def fixed_walls(settings):
    """Fixed deals: with random ones the computer sometimes won before the offer came
    (a hand that ends takes no more timer moves)."""
    settings.MAHJONG_TEST_SEED = "so-1"


def stage_table(user, stage, **options):
    Ruleset.objects.filter(engine_slug="stage").update(overrides={"options": options})
    progress = services.progress_for(user)
    progress.run = StageRun(stage=stage, score=stage_level(stage).start_score).to_dict()
    progress.save()
    return services.play(user)


def until_offer(table, kind, limit=60):
    for _ in range(limit):
        state = table.current_hand().game()
        if state.stage.offer == kind and state.turn == 0:
            return state
        hand = table.current_hand()
        assert tables.advance(hand.pk, hand.version)
    raise AssertionError(f"no {kind} offer")


def prompt_verbs(table, seat):
    return {p["verb"] for p in presenters.context_for(table, seat)["prompts"]}


def test_the_exchange_is_the_panel_not_prompt_buttons(alice, client_of):
    table = stage_table(alice, 2)
    state = table.current_hand().game()
    assert state.phase == "exchange" and state.turn == 0
    page = client_of(alice).get(table.get_absolute_url()).content.decode()
    assert page.count('data-offer="exchange"') == 1
    assert 'data-verb="exchange"' not in page and 'data-verb="pass"' in page
    assert page.count('"action": "pass"') == 1  # keeping the hand: the prompt's Pass alone
    assert prompt_verbs(table, 0) == {"pass"}
    assert "data-offer=" not in presenters.fragments(table, 1)  # the computer's seat


def test_the_swap_is_the_panel_and_plays_through_it(alice, client_of, htmx):
    table = stage_table(alice, 3, p_cuo=0.0, p_swap=1.0)
    state = until_offer(table, "swap")
    pushed = presenters.fragments(table, 0)  # what a socket push carries
    assert pushed.count('data-offer="swap"') == 1 and 'data-verb="swap"' not in pushed
    assert not prompt_verbs(table, 0) & {"swap", "cuo", "exchange"}
    hand = table.current_hand()
    give = [format_tile(t) for t in sorted(state.seat(0).hand)[-3:]]
    client_of(alice).post(
        reverse("stages:offer", args=[table.public_id]),
        {"kind": "swap", "tile": give, "version": hand.version},
        headers=htmx(),
    )
    after = table.current_hand().game()
    assert after.stage.swaps == 1 and after.stage.offer is None
    assert "data-offer=" not in presenters.fragments(table, 0)


def test_cuo_is_the_panel_only(alice):
    table = stage_table(alice, 3, p_cuo=1.0)
    state = until_offer(table, "cuo")
    pushed = presenters.fragments(table, 0)
    assert pushed.count('data-action="cuo ') == len(set(state.live))  # once each, on the panel
    assert 'data-verb="cuo"' not in pushed


@pytest.mark.parametrize("tile", ["\u00b2m", "\uff15m", "zz"])
def test_a_forged_tile_in_the_offer_form_is_refused_not_a_500(alice, client_of, htmx, tile):
    """The panel posts tiles as text: one that is no tile (a superscript digit once made
    parse_tiles raise a bare ValueError, a 500) is 'choose the tiles first', and nothing moves."""
    table = stage_table(alice, 2)
    hand = table.current_hand()
    assert hand.game().phase == "exchange"
    response = client_of(alice).post(
        reverse("stages:offer", args=[table.public_id]),
        {"kind": "exchange", "tile": [tile], "version": hand.version},
        headers=htmx(),
    )
    assert response.status_code == 200
    assert 'class="flash error"' in response.content.decode()
    hand.refresh_from_db()
    assert hand.version == table.current_hand().version and hand.game().phase == "exchange"


@pytest.mark.parametrize("count", [2, 4])
def test_a_swap_of_the_wrong_number_of_tiles_is_refused_in_the_pages_language(
    alice, client_of, htmx, count
):
    """The swap panel's check boxes allow any number: two chosen read "swap gives back
    exactly 3 tiles, not 2", the engine's English and notation, on a Chinese page."""
    table = stage_table(alice, 3, p_cuo=0.0, p_swap=1.0)
    state = until_offer(table, "swap")
    hand = table.current_hand()
    give = [format_tile(t) for t in sorted(state.seat(0).hand)[:count]]
    response = client_of(alice).post(
        reverse("stages:offer", args=[table.public_id]),
        {"kind": "swap", "tile": give, "version": hand.version},
        headers=htmx(),
    )
    html = response.content.decode()
    assert f"请正好选择 3 张牌交回：你选了 {count} 张，本次操作未执行。" in html
    assert "gives back" not in html
    hand.refresh_from_db()
    assert hand.version == table.current_hand().version
    assert table.current_hand().game().stage.offer == "swap"  # still open, nothing moved
    english = client_of(alice)
    english.cookies.load({"django_language": "en"})
    html = english.post(
        reverse("stages:offer", args=[table.public_id]),
        {"kind": "swap", "tile": give, "version": hand.version},
        headers=htmx(),
    ).content.decode()
    assert f"Choose exactly 3 tiles to give back: you chose {count}. Nothing was done." in html


@pytest.mark.parametrize("kind", ["exchange", "swap"])
def test_an_offer_of_a_tile_not_held_is_refused_in_the_pages_language(alice, client_of, htmx, kind):
    """A tampered panel's tile the player does not hold read "exchange 4z: 4z not in your
    hand", the engine's English and notation, on a Chinese page; now it names the tile
    (东风 / East wind) as the page's other refusals do, and nothing moves."""
    if kind == "exchange":
        table = stage_table(alice, 2)
        state = table.current_hand().game()
    else:
        table = stage_table(alice, 3, p_cuo=0.0, p_swap=1.0)
        state = until_offer(table, "swap")
    hand = table.current_hand()
    held = sorted(state.seat(0).hand)
    absent = next(t for t in range(34) if t not in held)
    give = [format_tile(t) for t in [*held[:2], absent]]
    url = reverse("stages:offer", args=[table.public_id])
    html = (
        client_of(alice)
        .post(url, {"kind": kind, "tile": give, "version": hand.version}, headers=htmx())
        .content.decode()
    )
    name = tile_name(absent, "zh")
    assert f"你手中没有：{name}，本次操作未执行。" in html
    assert "not in your hand" not in html
    hand.refresh_from_db()
    assert hand.version == table.current_hand().version
    english = client_of(alice)
    english.cookies.load({"django_language": "en"})
    html = english.post(
        url, {"kind": kind, "tile": give, "version": hand.version}, headers=htmx()
    ).content.decode()
    assert f"Not in your hand: {tile_name(absent, 'en')}. Nothing was done." in html
