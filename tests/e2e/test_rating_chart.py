"""The profile's rating chart in chromium: an SVG's text scales with its width, and the
chart drawn for a computer (600 user units across) had 6px labels on a 390px phone. The
phone's own chart (ratings/chart.py NARROW) is the one shown there, its labels legible
and its rating lines apart."""

from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from mahjong.ratings import chart, profile

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"
# the profile's frame around the chart (accounts/profile.html): the page, its card
PAGE = (
    "<!doctype html><html><head><meta name=viewport content='width=device-width'>"
    "<style>{css}</style></head><body><main class=page><section class=profile>"
    "<div class=card>{body}</div></section></main></body></html>"
)
# the shown chart's label size in CSS px and its rating lines' y, on screen
MEASURE = """() => {
  const shown = [...document.querySelectorAll('svg.rating-chart')]
    .filter(s => s.getBoundingClientRect().width > 0);
  const svg = shown[0], scale = svg.getScreenCTM().a;
  return {shown: shown.length, label: scale * parseFloat(svg.getAttribute('font-size')),
          lines: [...svg.querySelectorAll('line')].map(l => l.getBoundingClientRect().y),
          width: svg.getBoundingClientRect().width};
}"""


def rating_html() -> str:
    points = [
        chart.Point(
            1500 + 40 * ((i * 7) % 11) - 10 * i, max(60, 350 - 25 * i), f"2026-11-{i + 1:02d}"
        )
        for i in range(30)
    ]
    summary = profile.Summary(
        rating=1620,
        margin=140,
        games=29,
        charts=[chart.build(points, chart.WIDE), chart.build(points, chart.NARROW)],
    )
    with translation.override("en"):
        body = render_to_string("ratings/_rating.html", {"rating": summary})
    return PAGE.format(css=CSS.read_text(), body=body)


@pytest.mark.parametrize("width", [360, 390, 1000])
def test_the_rating_chart_is_legible_at_the_screens_width(browser, width):
    page = browser.new_page(viewport={"width": width, "height": 800})
    try:
        page.set_content(rating_html())
        m = page.evaluate(MEASURE)
    finally:
        page.close()
    assert m["shown"] == 1, m  # one chart, the one drawn for this width
    assert m["label"] >= 11, m
    lines = sorted(m["lines"])
    gaps = [b - a for a, b in zip(lines, lines[1:])]
    assert min(gaps) >= 2 * m["label"], m  # a rating label per line, none overlapping
