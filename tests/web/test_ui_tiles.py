"""The {% tile %} tag, its Django-free helper and the /ui/tiles/ gallery in a real browser."""

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from mahjong.engine.errors import InvalidAction
from mahjong.ui import render
from tests.web.test_browser import browser  # noqa: F401  the same Debian chromium launch

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def rendered(source, lang, **context):
    with translation.override(lang):
        return Template("{% load tiles %}" + source).render(Context(context))


@pytest.mark.parametrize(("lang", "alt"), [("zh-hans", "五万"), ("en", "Five of characters")])
def test_the_tag_names_the_tile_in_the_active_language(lang, alt):
    html = rendered('{% tile "5m" %}', lang)
    assert f'alt="{alt}"' in html
    assert 'src="/static/tiles/5m.svg"' in html
    assert 'class="tile tile--md"' in html and 'width="48" height="64"' in html


@pytest.mark.parametrize(
    ("tile", "zh", "en"),
    [
        ("7z", "红中", "Red dragon"),
        ("1s", "一条", "One of bamboo"),
        ("3f", "秋", "Autumn"),
        ("back", "牌背", "Tile back"),
    ],
)
def test_honours_flowers_and_the_back_have_names_too(tile, zh, en):
    assert f'alt="{zh}"' in rendered("{% tile t %}", "zh-hans", t=tile)
    assert f'alt="{en}"' in rendered("{% tile t %}", "en", t=tile)


def test_the_wild_and_drawn_markers_are_classes_and_words():
    html = rendered('{% tile "5m" size="xl" wild=True drawn=True %}', "en")
    assert 'class="tile tile--xl tile--wild tile--drawn"' in html
    assert 'alt="Five of characters (wild) (just drawn)"' in html
    zh = rendered("{% tile 4 wild=True %}", "zh-hans")
    assert 'alt="五万（财神）"' in zh and 'data-tile="5m"' in zh


ROW_LOOP = '{% for t in row %}{% tile t "sm" wild=wild attr=attr %}{% endfor %}'
RIVER_LOOP = (
    '{% for r in rows %}<div class="river-row">{% for d in r %}{% if d.latest %}'
    '<span class="latest">{% tile d.tile "sm" attr="data-face" %}</span>{% else %}'
    '{% tile d.tile "sm" attr="data-face" %}{% endif %}{% endfor %}</div>{% endfor %}'
)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize(
    ("row", "wild", "attr"),
    [
        (["1m", "5m", "7z", "2f"], "5m", ""),
        (["9s", "9s"], False, "data-face"),
        ([], None, ""),
    ],
)
def test_a_row_tag_is_the_markup_of_a_loop_of_tile_tags(lang, row, wild, attr):
    context = {"row": row, "wild": wild, "attr": attr}
    loop = rendered(ROW_LOOP, lang, **context)
    assert rendered('{% tiles row "sm" wild=wild attr=attr %}', lang, **context) == loop
    assert (row == []) == (loop == "")


@pytest.mark.parametrize("count", [0, 1, 13])
def test_backs_are_the_markup_of_a_loop_of_back_tiles(count):
    loop = '{% for i in ""|center:n %}{% tile "back" "sm" attr="" %}{% endfor %}'
    expected = rendered(loop, "en", n=count)
    assert rendered('{% tile_backs n "sm" %}', "en", n=count) == expected
    assert expected.count("tile--back") == count


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_river_rows_mark_the_latest_discard_as_the_loop_did(lang):
    rows = [
        [{"tile": t, "latest": False} for t in ("1m", "2m", "3m")],
        [{"tile": "7z", "latest": True}],
    ]
    html = rendered('{% river_rows rows "sm" %}', lang, rows=rows)
    assert html == rendered(RIVER_LOOP, lang, rows=rows)
    assert html.count('class="river-row"') == 2 and html.count('class="latest"') == 1
    empty = rendered('{% river_rows rows "sm" %}', lang, rows=[[]])
    assert empty == '<div class="river-row"></div>'


# The table's hand as a loop of tags, before {% hand_row %}: the reference markup.
HAND_LOOP = (
    '{% for t in own %}{% if t.action %}<button class="tile-button{% if t.keeps_ready %} '
    'keeps-ready{% endif %}" data-action="{{ t.action }}" data-key="{{ t.key }}"{% if t.k'
    'ey %} aria-keyshortcuts="{{ t.key }}"{% endif %} hx-post="{{ act_url }}" hx-vals=\'{"'
    'action": "{{ t.action }}", "version": {{ version }}}\' hx-swap="none">{% tile t.tile '
    '"lg" wild=wild %}{% if t.keeps_ready %}<span class="sr-only">{% translate "(keeps th'
    'e hand ready)" %}</span>{% endif %}</button>{% else %}<span class="tile-slot">{% til'
    'e t.tile "lg" wild=wild %}</span>{% endif %}{% endfor %}'
)
DRAWN_LOOP = (
    '{% if drawn %}{% if drawn.action %}<button class="tile-button drawn{% if drawn.keeps'
    '_ready %} keeps-ready{% endif %}" data-drawn="1" data-action="{{ drawn.action }}" da'
    'ta-key="{{ drawn.key }}"{% if drawn.key %} aria-keyshortcuts="{{ drawn.key }}"{% end'
    'if %} hx-post="{{ act_url }}" hx-vals=\'{"action": "{{ drawn.action }}", "version": {'
    '{ version }}}\' hx-swap="none">{% tile drawn.tile "lg" drawn=True wild=wild %}{% if d'
    'rawn.keeps_ready %}<span class="sr-only">{% translate "(keeps the hand ready)" %}</s'
    'pan>{% endif %}</button>{% else %}<span class="tile-slot drawn" data-drawn="1">{% ti'
    'le drawn.tile "lg" drawn=True wild=wild %}</span>{% endif %}{% endif %}'
)
OWN = [
    {"tile": "1m", "action": "discard 1m", "key": "1", "keeps_ready": True},
    {"tile": "5m", "action": "discard 5m", "key": "", "keeps_ready": False},
    {"tile": "7z", "action": "", "key": "3", "keeps_ready": False},
    {"tile": "2f", "action": '<discard "x">', "key": "&", "keeps_ready": False},
]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("wild", [False, "5m"])
def test_the_hand_row_is_the_markup_of_the_loop_it_replaced(lang, wild):
    context = {"own": OWN, "act_url": "/tables/ab&c/act/", "version": 1234, "wild": wild}
    html = rendered("{% hand_row own act_url version wild %}", lang, **context)
    assert html == rendered("{% load i18n %}" + HAND_LOOP, lang, **context)
    assert html.count("<button") == 3 and html.count('class="tile-slot"') == 1
    assert "&lt;discard &quot;x&quot;&gt;" in html and "/tables/ab&amp;c/act/" in html
    for drawn in OWN:
        tagged = rendered(
            "{% hand_row drawn act_url version wild drawn=True %}", lang, drawn=drawn, **context
        )
        assert tagged == rendered("{% load i18n %}" + DRAWN_LOOP, lang, drawn=drawn, **context)
        assert 'data-drawn="1"' in tagged


def test_a_size_in_pixels_sets_the_custom_property():
    html = rendered("{% tile '2p' size=40 %}", "en")
    assert 'style="--tile-w:40px"' in html and 'width="40" height="53"' in html


def test_the_back_is_marked_and_label_tag_gives_the_name_alone():
    assert "tile--back" in rendered('{% tile "back" size="xs" %}', "en")
    assert rendered('{% tile_label "9p" wild=True %}', "zh-hans") == "九筒（财神）"


@pytest.mark.parametrize("bad", ["0m", "8z", "5x", "", 42, -1])
def test_the_helper_refuses_what_is_not_a_tile(bad):
    with pytest.raises(InvalidAction):
        render.tile_html(bad, "en", src="x.svg")


def test_a_remembered_tile_follows_a_change_of_the_static_url(settings):
    before = rendered('{% tile "5m" %}', "en")
    settings.STATIC_URL = "/cdn/static/"
    assert 'src="/cdn/static/tiles/5m.svg"' in rendered('{% tile "5m" %}', "en")
    assert "/cdn/" not in before


def test_the_helper_escapes_its_source_url():
    html = render.tile_html("1m", "en", src='/s/"x".svg')
    assert 'src="/s/&quot;x&quot;.svg"' in html


@pytest.mark.django_db
def test_the_gallery_shows_every_tile_at_three_sizes_in_both_languages(client):
    html = client.get("/ui/tiles/").content.decode()
    for size in ("xs", "md", "xl"):
        assert len(re.findall(rf'class="tile tile--{size}[ "]', html)) >= 43
    assert 'alt="五万"' in html and 'alt="Five of characters"' in html
    assert 'alt="菊"' in html and 'alt="Chrysanthemum"' in html
    assert "tile--wild" in html and "tile--drawn" in html
    assert "js/sounds.js" in html and "css/tiles.css" in html


@pytest.mark.django_db
def test_the_gallery_follows_the_language_switcher(client):
    client.cookies["django_language"] = "en"
    html = client.get("/ui/tiles/").content.decode()
    assert '<html lang="en">' in html and "Tiles and sounds" in html


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1440, 900)])
def test_the_gallery_loads_every_tile_image_in_chromium(browser, live_server, width, height):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/ui/tiles/")
        page.wait_for_load_state("load")
        images = page.eval_on_selector_all(
            "img.tile__img",
            "imgs => imgs.map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])",
        )
        assert len(images) >= 43 * 3 + 4
        assert [src for src, complete, w in images if not complete or w <= 0] == []
        # The sign-up button in the top bar is readable (it was white on white).
        colours = page.eval_on_selector(
            ".topbar a.button",
            "a => [getComputedStyle(a).color, getComputedStyle(a).backgroundColor]",
        )
        assert colours == ["rgb(15, 81, 50)", "rgb(255, 255, 255)"]
        # Nothing wider than the phone: the rows wrap instead of scrolling sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"ui-tiles-{width}x{height}.png"), full_page=True)
        page.locator("section.felt").first.screenshot(
            path=str(ARTIFACTS / f"ui-tiles-{width}x{height}-felt.png")
        )
        # The sound API is there, muted state toggles and is remembered.
        assert page.evaluate("window.MahjongSounds.isMuted()") is False
        page.click("[data-sound-toggle]")
        assert page.evaluate("window.localStorage.getItem('mahjong.sounds.muted')") == "1"
        assert page.get_attribute("[data-sound-toggle]", "aria-pressed") == "true"
        # That click was a gesture: sounds are unlocked, but muted ones stay silent.
        assert page.evaluate("window.MahjongSounds.play('discard')") is False
        page.click("[data-sound-toggle]")
        assert page.evaluate("window.MahjongSounds.play('pon')") is True
        # The clock ticks once per second in the last five, however often it redraws.
        ticks = page.evaluate(
            "[7, 5.4, 5.1, 4.9, 4.2, 3.5, 0.5, 0].map(s => window.MahjongSounds.countdown(s))"
        )
        assert ticks == [False, False, False, True, False, True, True, False]
        page.click("[data-sound-toggle]")
        page.reload()
        assert page.evaluate("window.MahjongSounds.isMuted()") is True
        # No gesture yet on the new page: nothing may play, whatever the mute says.
        page.evaluate("window.MahjongSounds.setMuted(false)")
        assert page.evaluate("window.MahjongSounds.play('win')") is False
    finally:
        context.close()
