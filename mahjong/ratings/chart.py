"""A rating history as an inline SVG line chart, computed on the server: the template
only draws the coordinates made here (no JavaScript, no chart library).

An SVG's text scales with its width: the wide chart's labels, legible on a computer,
were 6px tall on a 390px phone. So a phone gets a chart of its own (NARROW, shown by
CSS below 560px): fewer user units across, so its labels come out about 12px, and fewer
ticks and dots to fit them."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    name: str  # the CSS class's modifier: rating-chart--wide / --narrow
    width: int
    height: int
    left: int  # room for the rating labels
    right: int
    top: int
    bottom: int  # room for the dates
    ticks: int  # about this many rating lines
    font_size: int
    max_dots: int  # more points than this: a dot on the last one only


WIDE = Layout(
    "wide", 600, 200, left=44, right=8, top=8, bottom=22, ticks=4, font_size=11, max_dots=40
)
NARROW = Layout(
    "narrow", 300, 200, left=38, right=6, top=10, bottom=24, ticks=3, font_size=12, max_dots=20
)


@dataclass(frozen=True)
class Point:
    rating: float
    deviation: float
    label: str  # the date under the first and last point


@dataclass(frozen=True)
class Chart:
    layout: str
    width: int
    height: int
    font_size: int
    line: str  # "x,y x,y ..." for <polyline>
    band: str  # the rating ± 2·RD area, for <polygon>
    dots: list[tuple[float, float]]
    y_ticks: list[tuple[float, int]]  # (y, rating)
    x_labels: list[tuple[float, str, str]]  # (x, text-anchor, text)
    left: int
    right: int


def _nice_step(span: float, ticks: int) -> int:
    raw = span / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    return int(next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw))


def build(points: list[Point], layout: Layout = WIDE) -> Chart | None:
    """None for fewer than two points: a line needs a start and an end."""
    if len(points) < 2:
        return None
    low = min(p.rating - 2 * p.deviation for p in points)
    high = max(p.rating + 2 * p.deviation for p in points)
    step = _nice_step(max(high - low, 40), layout.ticks)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    plot_w = layout.width - layout.left - layout.right
    plot_h = layout.height - layout.top - layout.bottom

    def x(i: int) -> float:
        return round(layout.left + plot_w * i / (len(points) - 1), 1)

    def y(value: float) -> float:
        return round(layout.top + plot_h * (high - value) / (high - low), 1)

    coords = [(x(i), y(p.rating)) for i, p in enumerate(points)]
    upper = [f"{x(i)},{y(p.rating + 2 * p.deviation)}" for i, p in enumerate(points)]
    lower = [f"{x(i)},{y(p.rating - 2 * p.deviation)}" for i, p in enumerate(points)]
    return Chart(
        layout=layout.name,
        width=layout.width,
        height=layout.height,
        font_size=layout.font_size,
        line=" ".join(f"{cx},{cy}" for cx, cy in coords),
        band=" ".join(upper + lower[::-1]),
        dots=coords if len(points) <= layout.max_dots else [coords[-1]],
        y_ticks=[(y(v), v) for v in range(int(low), int(high) + 1, step)],
        x_labels=[(x(0), "start", points[0].label), (x(len(points) - 1), "end", points[-1].label)],
        left=layout.left,
        right=layout.width - layout.right,
    )
