"""{% load tiles %} {% tile "5m" size="md" drawn=False wild=False %}

Renders static/tiles/<notation>.svg in a ``.tile`` span (static/css/tiles.css) with the
accessible name in the active language: 五万 under zh-hans, "Five of characters" under en.
``tile`` is a notation ("5m", "7z", "3f"), a kind (0-41) or "back"; ``size`` is xs/sm/md/
lg/xl (24/32/48/64/96 px) or a width in pixels. ``{% tile_label "5m" %}`` gives the name
alone, for a button's aria-label or a title.
"""

from django import template
from django.templatetags.static import static
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from mahjong.ui import render

register = template.Library()


@register.simple_tag
def tile(tile, size="md", drawn=False, wild=False):
    code = render.notation(tile)
    return mark_safe(render.tile_html(code, get_language() or "zh-hans",
                                      src=static(f"tiles/{code}.svg"), size=size,
                                      wild=bool(wild), drawn=bool(drawn)))


@register.simple_tag
def tile_label(tile, drawn=False, wild=False):
    return render.tile_label(tile, get_language() or "zh-hans", wild=bool(wild),
                             drawn=bool(drawn))
