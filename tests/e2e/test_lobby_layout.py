"""The lobby's room cards at a phone (both ways up), a tablet, a laptop and a desktop size,
measured from the cards' boxes: the built-in five rooms never leave a lone card on the
last row; a phone in portrait stacks them one a row, wider screens lay them out as a grid;
the page never scrolls sideways, each card's art is drawn and its one button is a thumb's
target, and no label breaks letter by letter (the top room's 2,000,000,000 once did)."""

from __future__ import annotations

import pytest

from tests.e2e.tour import new_player_page

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (844, 390), (768, 1024), (1024, 768), (1440, 900)]

ROWS = """() => {
  const rows = new Map();
  for (const card of document.querySelectorAll('#tiers .tier')) {
    const top = Math.round(card.getBoundingClientRect().top);
    rows.set(top, (rows.get(top) || 0) + 1);
  }
  return [...rows.values()];
}"""

CARDS = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, width: r.width, height: r.height};
  };
  return {
    viewport: innerWidth,
    pageScroll: document.documentElement.scrollWidth - innerWidth,
    cards: [...document.querySelectorAll('#tiers .tier')].map((card) => {
      const art = card.querySelector('img.tier-art');
      const buttons = card.querySelectorAll('.button.primary');
      const lines = [...card.querySelectorAll('h3, dt, .playing')].map((el) => ({
        text: el.textContent.trim(), height: el.getBoundingClientRect().height,
        size: parseFloat(getComputedStyle(el).fontSize)}));
      return {
        id: card.id, box: box(card), overflow: card.scrollWidth - card.clientWidth,
        art: art && {box: box(art), drawn: art.complete && art.naturalWidth > 0,
                     hidden: art.getAttribute('alt') === '' },
        buttons: [...buttons].map(box), lines,
        playing: card.querySelector('.playing').textContent.trim(),
      };
    }),
  };
}"""


def problems(m: dict) -> list[str]:
    found = []
    slack = 0.5  # sub-pixel rounding
    if m["pageScroll"] > 0:
        found.append(f"the page scrolls sideways by {m['pageScroll']}px")
    for card in m["cards"]:
        name, box = card["id"], card["box"]
        if box["left"] < -slack or box["right"] > m["viewport"] + slack:
            found.append(f"{name} {box} leaves the viewport")
        if card["overflow"] > 0:
            found.append(f"{name} overflows itself by {card['overflow']}px")
        art = card["art"]
        if not art or not art["drawn"] or not art["hidden"]:
            found.append(f"{name}: its art is missing, not drawn or not decorative: {art}")
        elif art["box"]["height"] < 60 or abs(art["box"]["width"] - box["width"]) > 2:
            found.append(f"{name}: its art is not a banner across the card: {art['box']}")
        if len(card["buttons"]) != 1:
            found.append(f"{name} has {len(card['buttons'])} primary buttons")
        for button in card["buttons"]:
            if button["height"] < 44:
                found.append(f"{name}: its button is {button['height']}px tall")
            if button["left"] < box["left"] - slack or button["right"] > box["right"] + slack:
                found.append(f"{name}: its button {button} leaves the card {box}")
        for line in card["lines"]:
            if line["height"] > 1.7 * line["size"]:  # two lines or more
                found.append(f"{name}: {line['text']!r} wraps ({line['height']}px)")
    return found


@pytest.mark.parametrize("width,height", SIZES)
def test_no_room_card_is_left_alone_on_the_last_row(browser, site, width, height):
    context = browser.new_context(locale="zh-CN", viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{site}/")
        rows = page.evaluate(ROWS)
        print(f"\n{width}x{height}: cards per row {rows}")
        assert sum(rows) == 5
        assert len(rows) == 1 or rows[-1] > 1 or max(rows) == 1, rows
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_the_room_cards_fit_every_size_with_their_art_and_one_thumb_sized_button(
    browser, site, site_database, locale
):
    with new_player_page(browser, site, site_database, "cards", locale=locale) as (page, _):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{site}/")
            page.wait_for_function(
                "[...document.querySelectorAll('img.tier-art')].every((i) => i.complete)"
            )
            m = page.evaluate(CARDS)
            rows = page.evaluate(ROWS)
            tallest = min(b["height"] for c in m["cards"] for b in c["buttons"])
            print(
                f"\n{locale} {width}x{height}: rows {rows}, card width "
                f"{m['cards'][0]['box']['width']:.0f}px, buttons >= {tallest:.0f}px"
            )
            assert problems(m) == [], (width, height)
            assert len(m["cards"]) == 5
            if width < 640:  # a phone held upright: one card a row, the page's width
                assert rows == [1] * 5
            else:  # a grid
                assert rows[0] > 1, rows
