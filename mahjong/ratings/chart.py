"""A rating history as an inline SVG line chart, computed on the server: the template
only draws the coordinates made here (no JavaScript, no chart library)."""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 600, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 8, 22  # room for the axis labels
TICKS = 4


@dataclass(frozen=True)
class Point:
    rating: float
    deviation: float
    label: str  # the date under the first and last point


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # "x,y x,y ..." for <polyline>
    band: str  # the rating ± 2·RD area, for <polygon>
    dots: list[tuple[float, float]]
    y_ticks: list[tuple[float, int]]  # (y, rating)
    x_labels: list[tuple[float, str, str]]  # (x, text-anchor, text)
    left: int
    right: int


def _nice_step(span: float) -> int:
    raw = span / TICKS
    magnitude = 10 ** math.floor(math.log10(raw))
    return int(next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw))


def build(points: list[Point]) -> Chart | None:
    """None for fewer than two points: a line needs a start and an end."""
    if len(points) < 2:
        return None
    low = min(p.rating - 2 * p.deviation for p in points)
    high = max(p.rating + 2 * p.deviation for p in points)
    step = _nice_step(max(high - low, 40))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / (len(points) - 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    coords = [(x(i), y(p.rating)) for i, p in enumerate(points)]
    upper = [f"{x(i)},{y(p.rating + 2 * p.deviation)}" for i, p in enumerate(points)]
    lower = [f"{x(i)},{y(p.rating - 2 * p.deviation)}" for i, p in enumerate(points)]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        line=" ".join(f"{cx},{cy}" for cx, cy in coords),
        band=" ".join(upper + lower[::-1]),
        dots=coords if len(points) <= 40 else [coords[-1]],
        y_ticks=[(y(v), v) for v in range(int(low), int(high) + 1, step)],
        x_labels=[(x(0), "start", points[0].label), (x(len(points) - 1), "end", points[-1].label)],
        left=LEFT,
        right=WIDTH - RIGHT,
    )
