"""The lobby's room cards at a phone, a tablet, a laptop and a desktop size: the built-in
five rooms never leave a lone card on the last row (measured from the cards' boxes)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

SIZES = [(390, 844), (768, 1024), (1024, 768), (1440, 900)]

ROWS = """() => {
  const rows = new Map();
  for (const card of document.querySelectorAll('#tiers .tier')) {
    const top = Math.round(card.getBoundingClientRect().top);
    rows.set(top, (rows.get(top) || 0) + 1);
  }
  return [...rows.values()];
}"""


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
