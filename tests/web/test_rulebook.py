"""The players' rule book (/rules/): every ruleset on offer, its facts and payment formula
from the engine with the operator's overrides, its rules of play, and every fan of its
table with the value the operator set and what it takes, in both languages."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from catalogue.models import RoomTier, Ruleset
from mahjong.engine.fans import TABLES
from mahjong.engine.rulesets import RULESETS
from mahjong.rulebook import book
from tests.web.test_i18n import english_words

pytestmark = pytest.mark.django_db


def page(client, slug: str, language: str = "zh-hans") -> str:
    client.cookies["django_language"] = language
    response = client.get(reverse("rulebook:ruleset", args=[slug]))
    assert response.status_code == 200
    return response.content.decode()


def fan_item(html: str, key: str) -> str:
    """The <li> of one fan."""
    found = re.search(rf'<li id="fan-{key}" data-fan="{key}">(.*?)</li>', html, re.S)
    assert found, key
    return found.group(1)


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_every_fan_of_every_ruleset_is_described_in_both_languages(slug):
    """A fan the engine scores but the book does not explain is a hole in the page; the
    check goes through the same loader as the page (no key too few, none too many)."""
    texts = book.texts(book.FAN_TEXTS.get(slug, slug))
    keys = [fan.key for fan in TABLES[slug].fans]
    assert sorted(texts["fans"]) == sorted(keys)
    own = book.texts(slug)
    for text in [*texts["fans"].values(), own["summary"], *own["play"]]:
        assert set(text) - {"needs", "never"} == {"zh", "en"}, text
        assert text["zh"].strip() and text["en"].strip() and text.get("never", True) is True
        assert set(text.get("needs", "")) <= set("mps"), text  # the suits a fan cannot lack
        assert re.search(r"[\u4e00-\u9fff]", text["zh"]), text  # Chinese in the Chinese
        assert re.search(r"[A-Za-z]{3}", text["en"]) and text["en"] != text["zh"], text


# Tile notation, also right beside a Chinese character (which \b would count as a letter).
NOTATION = re.compile(r"(?<![0-9A-Za-z–-])\d+[mpszf](?![0-9A-Za-z])")
EXAMPLE = re.compile(r"^\d+[mpszf]( \d+[mpszf])*$")
CJK = re.compile(r"[\u3400-\u9fff]")


def every_text():
    for path in sorted(book.TEXTS.glob("*.json")):
        data = book.texts(path.stem)
        yield path.stem, "summary", data["summary"]
        for i, text in enumerate(data.get("play", [])):
            yield path.stem, f"play {i}", text
        for key, text in data.get("fans", {}).items():
            yield path.stem, key, text


def test_tiles_are_written_as_examples_and_english_glosses_its_chinese_terms():
    """The page draws each `123m 55z` as tiles, so notation outside backticks would show
    as code-like text; an English reader gets "the extra draws (海底捞月)", never a bare
    Chinese term (as tests/web/test_i18n.py asks of the catalogs)."""
    bare, not_tiles, untranslated = [], [], []
    for name, where, text in every_text():
        for language in ("zh", "en"):
            if NOTATION.search(book.EXAMPLE.sub("", text[language])):
                bare.append((name, where, language))
            not_tiles += [
                (name, where, ex)
                for ex in book.EXAMPLE.findall(text[language])
                if not EXAMPLE.match(ex)
            ]
        if CJK.search(re.sub(r"\([^()]*\)", "", text["en"])):
            untranslated.append((name, where))
    assert (bare, not_tiles, untranslated) == ([], [], [])


def test_an_example_is_drawn_as_tiles_and_anything_else_stays_text():
    assert book.parts("e.g. `123m 55z`, won on `5z`.") == [
        {"text": "e.g. "},
        {"tiles": [["1m", "2m", "3m"], ["5z", "5z"]], "code": "123m 55z"},
        {"text": ", won on "},
        {"tiles": [["5z"]], "code": "5z"},
        {"text": "."},
    ]
    assert book.parts("`AA + ABC`") == [{"code": "AA + ABC"}]


def test_the_shared_basics_are_written_in_both_languages():
    common = book.texts("common")
    assert set(common) == {"summary", "play"} and len(common["play"]) >= 5
    for text in [common["summary"], *common["play"]]:
        assert text["zh"].strip() and text["en"].strip() and text["zh"] != text["en"]


def test_the_index_lists_the_rulesets_on_offer_and_the_basics(builtin, client):
    Ruleset.objects.filter(slug="tiao72").update(is_active=False)
    html = page_of(client, reverse("rulebook:index"), "en")
    for row in Ruleset.objects.filter(is_active=True):
        assert f'href="{reverse("rulebook:ruleset", args=[row.slug])}"' in html
        assert escape(book.texts(row.engine_slug)["summary"]["en"]) in html
    assert reverse("rulebook:ruleset", args=["tiao72"]) not in html
    assert escape(book.texts("common")["play"][0]["en"]) in html


def page_of(client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_retired_or_unknown_ruleset_has_no_page(builtin, client):
    Ruleset.objects.filter(slug="tiao72").update(is_active=False)
    assert client.get(reverse("rulebook:ruleset", args=["tiao72"])).status_code == 404
    assert client.get(reverse("rulebook:ruleset", args=["nothing"])).status_code == 404


def test_the_page_says_the_rules_as_the_operator_set_them(builtin, client):
    """The admin's overrides reach the page: a cap of 10 and 清一色 worth 6, not the book's
    13 and 5; the page is open without an account."""
    classic = Ruleset.objects.get(slug="classic")
    before = page(client, "classic", "en")
    assert "The fan counted is at most 13." in before
    assert ">5 fan</span>" in fan_item(before, "qing_yi_se")
    classic.overrides = {"cap": 10, "fan_values": {"qing_yi_se": 6}, "self_draw_multiplier": 2}
    classic.full_clean()
    classic.save()
    after = page(client, "classic", "en")
    assert "The fan counted is at most 10." in after and "at most 13" not in after
    assert ">6 fan</span>" in fan_item(after, "qing_yi_se")
    assert "total fan × 2 × base 1" in after


def test_each_fan_has_its_names_value_condition_and_the_fans_it_leaves_out(builtin, client):
    html = page(client, "classic", "en")
    conditions = book.texts("classic")["fans"]
    tian_ting = fan_item(html, "tian_ting")
    assert "Heavenly ready" in tian_ting and "天听" in tian_ting and ">2 fan</span>" in tian_ting
    assert book.EXAMPLE.split(conditions["tian_ting"]["en"])[0] in tian_ting
    assert 'href="#fan-men_qing_bao_ting"' in tian_ting  # 不计: a link to the fan it absorbs
    assert "Yakuman (役满)" in fan_item(html, "da_san_yuan")
    assert ">1 fan</span>" in fan_item(html, "hua_pai")  # each flower: said by its condition
    assert html.count('<li id="fan-') == len(TABLES["classic"].fans)
    chinese = page(client, "classic")
    assert book.EXAMPLE.split(conditions["tian_ting"]["zh"])[0] in fan_item(chinese, "tian_ting")


def test_the_facts_come_from_each_rulesets_own_settings(builtin, client):
    classic = page(client, "classic", "en")
    assert (
        "72 tiles: characters (万) 1–9, the four winds and three dragons, 4 of each, "
        "and 8 flowers." in classic
    )
    assert "13 tiles; the dealer starts with 14." in classic
    assert "国士无双" not in fan_free(classic)  # no 筒 or 条: not a form classic can make
    assert (
        "a ready player (the first to be ready, if both are) draws up to 3 more tiles" in classic
    )  # 海底捞月: haidi_draws, and not both players
    gb = page(client, "gb", "en")
    assert "A hand needs at least 8 fan to win" in gb and "a match is 8 hands" in gb
    assert "(total fan + 8) × base 1" in gb
    wenzhou = page(client, "wenzhou", "en")
    assert "16 tiles; the dealer starts with 17." in wenzhou
    assert "5 sets (chows, pungs or kongs) and a pair" in wenzhou
    assert "Wilds (财神)" in wenzhou and ">×2</span>" in fan_item(wenzhou, "peng_peng_he")
    assert "B × 16 as dealer, B × 8 otherwise" in wenzhou
    quesheng = page(client, "quesheng", "en")
    assert "at most 3 times a hand" in quesheng and "The house takes 5%" in quesheng
    stage = page(client, "stage", "en")
    assert "each hand is played with 71 of them" in stage and "Leaving a hand" not in stage
    assert "From stage 2 on, 5 tiles." in stage  # 五张海底摸牌


def fan_free(html: str) -> str:
    """The page without its fan list (国士无双 is a classic fan, unreachable but listed)."""
    return re.sub(r'<ol class="fan-list".*?</ol>', "", html, flags=re.S)


def test_a_fan_the_tiles_cannot_make_is_marked_and_flowers_only_where_there_are_flowers(
    builtin, client
):
    """Classic's 72 tiles have no 筒 or 条: its three-suit fans are in the table but cannot
    occur; stage mode plays the same table with 136 tiles and no flowers."""
    classic, stage = page(client, "classic", "en"), page(client, "stage", "en")
    assert 'data-testid="fan-impossible"' in fan_item(classic, "san_se_tong_shun")
    assert 'data-testid="fan-impossible"' in fan_item(classic, "lv_yi_se")
    assert 'data-testid="fan-impossible"' not in fan_item(classic, "qing_yi_se")
    assert 'data-testid="fan-impossible"' not in stage
    assert 'data-fan="hua_pai"' in classic and 'data-fan="hua_pai"' not in stage
    # 72 bamboo tiles: 全大 needs 14 of the twelve 7s 8s 9s; 无字 always has 清一色 over it
    tiao72 = page(client, "tiao72", "en")
    for key in ("quan_da", "quan_zhong", "quan_xiao", "quan_shuang_ke", "quan_dai_wu", "wu_zi"):
        assert 'data-testid="fan-impossible"' in fan_item(tiao72, key), key
    assert 'data-testid="fan-impossible"' not in fan_item(tiao72, "qing_yi_se")


def test_the_fans_a_fan_stands_in_for_or_absorbs_once_are_listed(builtin, client):
    gb = page(client, "gb", "en")
    fully_concealed = fan_item(gb, "bu_qiu_ren")  # 不求人 is 门前清 + 自摸 (replaces)
    assert 'href="#fan-zi_mo"' in fully_concealed and 'href="#fan-men_qian_qing"' in fully_concealed
    nine_gates = fan_item(gb, "jiu_lian_bao_deng")  # absorbs one 幺九刻 (excludes_one)
    assert "One of these not counted with it:" in nine_gates
    assert 'href="#fan-yao_jiu_ke"' in nine_gates


def test_the_rooms_that_play_a_ruleset_say_their_beans_per_point(builtin, client):
    html = page(client, "classic", "en")
    for tier in RoomTier.objects.filter(ruleset__slug="classic", is_active=True):
        assert f"{tier.display_name}: points × {tier.beans_per_point:,} beans" in html


@pytest.mark.parametrize("slug", ["classic", "gb", "wenzhou", "stage"])
def test_a_chinese_page_keeps_no_english(builtin, client, slug):
    html = page(client, slug)
    assert '<html lang="zh-hans">' in html
    assert english_words(html, {"Online", "English"}) == []


def test_the_pages_cost_a_few_queries_whatever_the_table(
    builtin, client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(4):
        page(client, "gb", "en")
    with django_assert_max_num_queries(3):
        page_of(client, reverse("rulebook:index"), "en")


def test_the_lobby_the_table_the_room_and_stage_mode_link_to_the_rules(alice, client_of):
    from mahjong.tables import services

    c = client_of(alice)
    lobby = c.get("/").content.decode()
    assert f'href="{reverse("rulebook:ruleset", args=["classic"])}"' in lobby  # a room's tag
    assert f'href="{reverse("rulebook:index")}"' in lobby
    bot = alice.__class__.objects.filter(kind=alice.Kind.BOT).order_by("pk").first()
    table = services.open_table(Ruleset.objects.get(slug="gb"), [alice, bot])
    at_table = c.get(table.get_absolute_url()).content.decode()
    assert re.search(
        r'href="/rules/gb/" target="_blank" rel="noopener" data-testid="rules-link"', at_table
    )
    stages = c.get(reverse("stages:home")).content.decode()
    assert 'data-testid="stage-rules"' in stages and 'href="/rules/stage/"' in stages


def test_the_texts_are_json_a_person_can_edit():
    """One object per file, two-space indented as written, so a change reads as a diff."""
    for path in sorted(book.TEXTS.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2) + "\n", path


def test_the_page_language_picks_the_text():
    text = {"zh": "七对", "en": "Seven pairs"}
    with translation.override("en"):
        assert book.said(text) == "Seven pairs"
    with translation.override("zh-hans"):
        assert book.said(text) == "七对"


# ----- the fan calculator ---------------------------------------------------------------
def calculate(client, slug: str, language: str = "en", htmx: bool = False, **fields) -> str:
    client.cookies["django_language"] = language
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(reverse("rulebook:calculator", args=[slug]), fields, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def fans_of(html: str) -> list[str]:
    return re.findall(r'<li data-fan="(\w+)">', html)


def test_the_calculator_scores_a_hand_as_the_engine_does(builtin, client):
    from mahjong.engine.cli.score import answer
    from mahjong.engine.rulesets import get_ruleset

    html = calculate(client, "gb", hand="123m456m789m1155z", win="5z", tsumo="on")
    expected = answer({"hand": "123m456m789m1155z", "win": "5z", "tsumo": True}, get_ruleset("gb"))
    assert fans_of(html) == [f["key"] for f in expected["fans"]]
    assert f">{expected['total']} fan</h2>" in html
    assert 'href="/rules/gb/#fan-qing_long"' in html  # each fan leads to its line in the book
    assert html.count('class="tile-group"') == 5  # the reading: three chows, a pair, a pung


def test_the_calculator_uses_the_operators_values_and_the_situation(builtin, client):
    classic = Ruleset.objects.get(slug="classic")
    hand = {"hand": "123m456m789m1155z", "win": "5z"}
    assert "men_qing_zi_mo" not in fans_of(calculate(client, "classic", **hand))
    drawn = calculate(client, "classic", tsumo="on", **hand)
    assert "men_qing_zi_mo" in fans_of(drawn)
    classic.overrides = {"fan_values": {"yi_qi_tong_guan": 7}}
    classic.save()
    assert 'data-fan="yi_qi_tong_guan"><a href="/rules/classic/#fan-yi_qi_tong_guan">' in calculate(
        client, "classic", **hand
    )
    assert ">7 fan</span>" in calculate(client, "classic", **hand)


def test_a_gb_hand_below_the_minimum_is_said_to_be_no_legal_win(builtin, client):
    html = calculate(client, "gb", hand="234m567m345p678s5z", win="5z")
    assert 'data-testid="calc-below-minimum"' in html and "minimum of 8 fan" in html


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"hand": "123m456m789m115z", "win": "5z"}, "these make 13"),
        ({"hand": "123m456m789m1155z", "win": "5x"}, "e.g. 123m 456m 55z"),
        ({"hand": "123m456m789m1155z", "win": "55z"}, "One tile, e.g. 5z."),
        ({"hand": "123m789m1155z", "win": "5z", "melds": "chow 456m"}, "separated by commas"),
        ({"hand": "11111m456m789m11z", "win": "1z"}, "One of characters: there are only 4"),
        ({"hand": "123m456m789m1155z", "win": "4z"}, "not a winning hand under these rules"),
        ({"hand": "", "win": "5z"}, "This field is required."),
    ],
)
def test_a_bad_hand_gets_a_clear_message(builtin, client, fields, message):
    html = calculate(client, "gb", **fields)
    assert message in html and fans_of(html) == []


def test_the_calculator_speaks_chinese(builtin, client):
    html = calculate(client, "gb", "zh-hans", hand="123m456m789m115z", win="5z")
    assert "此规则胡牌时共 14 张（每副副露算三张），现在是 13 张。" in html
    assert english_words(html, {"Online", "English"}) == []


def test_the_calculator_offers_only_what_the_rules_read(builtin, client):
    gb = calculate(client, "gb")
    assert 'name="seat_wind"' in gb and 'name="last_of_kind"' in gb and 'name="ting"' not in gb
    classic = calculate(client, "classic")
    assert 'name="ting"' in classic and 'name="haidi_phase"' in classic
    assert 'name="seat_wind"' not in classic and 'name="passes"' not in classic
    wenzhou = calculate(client, "wenzhou")
    assert 'name="wild"' in wenzhou and 'name="last_tile"' not in wenzhou  # no fan reads it
    quesheng = calculate(client, "quesheng")
    assert 'name="passes"' in quesheng and 'max="3"' in quesheng


def test_htmx_gets_the_form_and_result_alone(builtin, client):
    html = calculate(client, "gb", htmx=True, hand="123m456m789m1155z", win="5z")
    assert html.startswith('\n<div id="calculator">') or html.lstrip().startswith(
        '<div id="calculator">'
    )
    assert "<html" not in html and fans_of(html)


def test_melds_may_be_written_in_chinese(builtin, client):
    english = calculate(client, "gb", hand="123m789m1155z", win="5z", melds="chi 456m")
    chinese = calculate(client, "gb", "zh-hans", hand="123m789m1155z", win="5z", melds="吃 456m")
    assert fans_of(chinese) == fans_of(english) and "qing_long" in fans_of(english)
    two = calculate(client, "gb", hand="123m1155z", win="5z", melds="吃 456m，暗杠 7777m")
    assert fans_of(two) == fans_of(
        calculate(client, "gb", hand="123m1155z", win="5z", melds="chi 456m, ankan 7777m")
    )
    assert "an_gang" in fans_of(two)


def test_a_wild_or_a_tile_these_rules_do_not_have_is_refused_by_name(builtin, client):
    flower_wild = calculate(
        client, "wenzhou", hand="123m456m789m123p456p9p", win="9p", wild="1f"
    )  # was a server error in the engine
    assert "Flowers are not part of a hand" in flower_wild and fans_of(flower_wild) == []
    dots = calculate(client, "classic", hand="123p456m789m11z22z", win="1z")
    assert "One of dots is not among these rules&#x27; tiles." in dots


def test_full_width_and_capital_notation_is_read(builtin, client):
    assert fans_of(calculate(client, "gb", hand="１２３Ｍ456M789m1155Z", win="5Z")) == fans_of(
        calculate(client, "gb", hand="123m456m789m1155z", win="5z")
    )


def test_which_flowers_score_the_flower_sets(builtin, client):
    hand = {"hand": "123s456s789s11z22z", "win": "2z"}
    eight = calculate(client, "tiao72", flowers="1f2f3f4f5f6f7f8f", **hand)
    assert "ba_xian_guo_hai" in fans_of(eight)
    seasons = calculate(client, "tiao72", flowers="1f 2f 3f 4f", **hand)
    assert "chun_xia_qiu_dong" in fans_of(seasons) and "ba_xian_guo_hai" not in fans_of(seasons)
    assert "hua_pai" in fans_of(calculate(client, "tiao72", flowers="2", **hand))
    assert "each flower once" in calculate(client, "tiao72", flowers="1f1f", **hand)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"robbing_kong": "on", "tsumo": "on"}, "it is not self-drawn"),
        ({"kong_replacement": "on", "tsumo": "on"}, "with a kong among the melds"),
        (
            {"ting": "tian_ting", "melds": "pon 111z", "hand": "12m456m789m55z"},
            "Heavenly ready is declared before any chow, pung or kong.",
        ),
        ({"first_turn": "on", "ting": "ready"}, "A first-turn win comes before"),
        ({"passes": "2"}, "Wins are passed only by a player who declared ready"),
        ({"passes": "4", "ting": "ready"}, "At most 3."),
    ],
)
def test_a_situation_no_table_can_deal_is_refused(builtin, client, fields, message):
    """The engine scores what it is told: 天听 after a pung scored 32 here, never at a table."""
    hand = {"hand": "123m456m789m1155z", "win": "5z"} | fields
    html = calculate(client, "quesheng", **hand)
    assert message in html and fans_of(html) == []


def test_passed_wins_double_the_fans_and_say_so(builtin, client):
    hand = {"hand": "123m456m789m1155z", "win": "5z", "ting": "ready"}
    once = calculate(client, "quesheng", **hand)
    twice = calculate(client, "quesheng", passes="2", **hand)
    total = int(re.search(r">(\d+) fan</h2>", once).group(1))
    assert f">{total * 4} fan</h2>" in twice
    assert "Passed wins (过胡加倍): the fans × 4." in twice and "Before the cap" not in twice


def test_the_reading_marks_the_tiles_a_wild_plays(builtin, client):
    """温州: with 3s the wild, a 3s in the hand stands for another tile and is marked 财;
    a 白板 plays as an ordinary 3s, shown as the 3s it plays and marked 白 (it read as a 3s
    the player never held); without a wild nothing is."""
    from mahjong.ui import render

    wild = render.tile_label("3p", "en", wild=True)  # the accessible name says it is a wild
    white = render.tile_label("3s", "en", white=True)
    html = calculate(
        client, "wenzhou", hand="123m456m789m12p456s55z", win="3s", wild="3s", tsumo="on"
    )
    reading = html.split('class="calc-reading"', 1)[1].split("</p>", 1)[0]
    assert reading.count("<img") == 17 and reading.count("tile--wild") == 1
    assert f'alt="{wild}"' in reading  # the 3p of 123p is the wild typed as 3s
    assert reading.count("tile--white") == 2 and reading.count(f'alt="{white}"') == 2
    assert white == "Three of bamboo (a White Dragon standing in)"
    plain = calculate(client, "gb", hand="123m456m789m1155z", win="5z")
    assert "wild" not in plain.split('class="calc-reading"', 1)[1].split("</p>", 1)[0]
