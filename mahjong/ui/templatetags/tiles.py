"""{% load tiles %} {% tile "5m" size="md" drawn=False wild=False %}

Renders static/tiles/<notation>.svg in a ``.tile`` span (static/css/tiles.css) with the
accessible name in the active language: 五万 under zh-hans, "Five of characters" under en.
``tile`` is a notation ("5m", "7z", "3f"), a kind (0-41) or "back"; ``size`` is xs/sm/md/
lg/xl (24/32/48/64/96 px) or a width in pixels; ``attr`` is the data attribute carrying the
notation ("data-tile" unless told, "" for none); ``wild`` is True/False or the 财神's
notation (the tile is marked when it is that kind). ``{% tile_label "5m" %}`` gives the name
alone, for a button's aria-label or a title.
"""

from django import template
from django.templatetags.static import static
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from mahjong.ui import render

register = template.Library()


@register.simple_tag
def tile(tile, size="md", drawn=False, wild=False, attr="data-tile"):
    code = render.notation(tile)
    return mark_safe(render.tile_html(code, get_language() or "zh-hans",
                                      src=static(f"tiles/{code}.svg"), size=size,
                                      wild=_is_wild(code, wild), drawn=bool(drawn), attr=attr))


@register.simple_tag
def tile_label(tile, drawn=False, wild=False):
    return render.tile_label(tile, get_language() or "zh-hans",
                             wild=_is_wild(render.notation(tile), wild), drawn=bool(drawn))


def _is_wild(code: str, wild) -> bool:
    """``wild`` is a flag, or the 财神's notation ("3m", or None without one): a page
    passes its table's wild for every tile and the matching ones are marked."""
    if isinstance(wild, str):
        return wild == code
    return bool(wild)
