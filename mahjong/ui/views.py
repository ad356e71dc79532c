from django.shortcuts import render
from django.views.decorators.http import require_GET

from mahjong.engine.tiles import ALL_KINDS, format_tile, suit_of

from .render import SIZES

GROUPS = ("m", "p", "s", "z", "f")
SOUNDS = [
    ("draw", "摸牌 · Draw"),
    ("discard", "出牌 · Discard"),
    ("claim", "吃碰杠 · Claim"),
    ("win", "胡牌 · Win"),
    ("tick", "倒计时 · Clock tick"),
]


@require_GET
def tiles(request):
    """Every tile at three sizes, the markers, both languages and the sounds: for designers
    and operators checking the art; public (there is nothing secret in a tile). Its own
    text is bilingual on the page, so it adds nothing to the message catalog."""
    groups = [[format_tile(k) for k in ALL_KINDS if suit_of(k) == suit] for suit in GROUPS]
    return render(
        request,
        "ui/tiles.html",
        {
            "groups": groups,
            "all_tiles": [format_tile(k) for k in ALL_KINDS],
            "sizes": [("xs", SIZES["xs"]), ("md", SIZES["md"]), ("xl", SIZES["xl"])],
            "sounds": SOUNDS,
            "gallery_languages": ["zh-hans", "en"],
        },
    )
