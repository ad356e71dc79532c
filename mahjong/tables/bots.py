"""Kept for older imports (views, template tags): the table's bot logic lives in
``bot_moves``."""

from .bot_moves import choose, levels

__all__ = ["choose", "levels"]
