"""{% load tiles %} {% tile "5m" size="md" drawn=False wild=False %}

Renders static/tiles/<notation>.svg in a ``.tile`` span (static/css/tiles.css) with the
accessible name in the active language: 五万 under zh-hans, "Five of characters" under en.
``tile`` is a notation ("5m", "7z", "3f"), a kind (0-41) or "back"; ``size`` is xs/sm/md/
lg/xl (24/32/48/64/96 px) or a width in pixels; ``attr`` is the data attribute carrying the
notation ("data-tile" unless told, "" for none); ``wild`` is True/False or the 财神's
notation (the tile is marked when it is that kind); ``white`` marks a 白板 playing as the
财神's kind (温州: the winning hand shows the kind it plays). ``{% tile_label "5m" %}``
gives the name alone, for a button's aria-label or a title.

A table push renders about 50 tiles for each screen on every move, and a loop of
``{% tile %}`` tags costs the template engine far more than the markup itself. Rows of
tiles therefore have tags of their own, each the same markup as a loop of ``{% tile %}``:
``{% tiles list "sm" wild=wild attr="" %}`` a row, ``{% tile_backs n "sm" %}`` n tile backs,
``{% river_rows rows "sm" %}`` a river (rows of ``{"tile", "latest"}``, the latest discard
in ``<span class="latest">``), and ``{% hand_row own act_url version wild %}`` the
viewer's concealed tiles (``{"tile", "action", "key", "keeps_ready"}`` each, from
tables.presenters): a discard button for each tile with an action, a plain slot for the
rest; ``drawn=True`` for the drawn tile (one such dict).
"""

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from mahjong.ui import render

register = template.Library()


@register.simple_tag
def tile(tile, size="md", drawn=False, wild=False, attr="data-tile", white=False):
    return _tile(tile, size, bool(drawn), wild, attr, _language(), bool(white))


@register.simple_tag
def tiles(row, size="md", wild=False, attr="data-tile"):
    language = _language()
    return mark_safe("".join(_tile(t, size, False, wild, attr, language) for t in row))


@register.simple_tag
def tile_backs(count, size="md"):
    return mark_safe(_tile("back", size, False, False, "", _language()) * int(count))


@register.simple_tag
def river_rows(rows, size="md", attr="data-face"):
    language = _language()
    return mark_safe(
        "".join(
            '<div class="river-row">'
            + "".join(_river_tile(d, size, attr, language) for d in row)
            + "</div>"
            for row in rows
        )
    )


@register.simple_tag
def hand_row(row, act_url, version, wild=False, drawn=False):
    language = _language()
    if drawn:
        row = [row]
    note = f'<span class="sr-only">{escape(gettext("(keeps the hand ready)"))}</span>'
    return mark_safe(
        "".join(
            _hand_tile(t, escape(act_url), int(version), wild, bool(drawn), note, language)
            for t in row
        )
    )


def _hand_tile(t: dict, act_url: str, version: int, wild, drawn: bool, note: str, language):
    face = _tile(t["tile"], "lg", drawn, wild, "data-tile", language)
    marks = ' data-drawn="1"' if drawn else ""
    if not t["action"]:
        return f'<span class="tile-slot{" drawn" if drawn else ""}"{marks}>{face}</span>'
    action, key = escape(t["action"]), escape(t["key"])
    ready = bool(t["keeps_ready"])
    classes = "tile-button" + (" drawn" if drawn else "") + (" keeps-ready" if ready else "")
    shortcut = f' aria-keyshortcuts="{key}"' if key else ""
    vals = f'{{"action": "{action}", "version": {version}}}'
    return (
        f'<button class="{classes}"{marks} data-action="{action}" data-key="{key}"{shortcut}'
        f""" hx-post="{act_url}" hx-vals='{vals}' hx-swap="none">"""
        f"{face}{note if ready else ''}</button>"
    )


def _river_tile(discard: dict, size, attr: str, language: str) -> str:
    markup = _tile(discard["tile"], size, False, False, attr, language)
    return f'<span class="latest">{markup}</span>' if discard["latest"] else markup


def _language() -> str:
    return get_language() or "zh-hans"


# A table page shows about 50 tiles and is rendered for every screen on every move;
# a tile's markup is a pure function of these arguments (and the static files' URLs),
# and there are only a few thousand distinct ones.
@lru_cache(maxsize=8192)
def _tile(tile, size, drawn: bool, wild, attr: str, language: str, white: bool = False):
    code = render.notation(tile)
    return mark_safe(
        render.tile_html(
            code,
            language,
            src=static(f"tiles/{code}.svg"),
            size=size,
            wild=_is_wild(code, wild),
            drawn=drawn,
            attr=attr,
            white=white,
        )
    )


@receiver(setting_changed)
def _static_urls_changed(setting, **kwargs):
    if setting in ("STATIC_URL", "STORAGES"):
        _tile.cache_clear()


@register.simple_tag
def tile_label(tile, drawn=False, wild=False):
    return render.tile_label(
        tile,
        get_language() or "zh-hans",
        wild=_is_wild(render.notation(tile), wild),
        drawn=bool(drawn),
    )


def _is_wild(code: str, wild) -> bool:
    """``wild`` is a flag, or the 财神's notation ("3m", or None without one): a page
    passes its table's wild for every tile and the matching ones are marked."""
    if isinstance(wild, str):
        return wild == code
    return bool(wild)
