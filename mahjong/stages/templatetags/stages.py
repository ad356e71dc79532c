"""{% load stages %}{% stage_offer %}: the player's open stage offer (起始换牌, 搓牌,
游戏中换牌) as controls, on a table page whose context is tables.presenters.context_for
(it reads ``view``, ``seat``, ``version``, ``table`` and ``act_url``). Renders nothing
when no offer is open for this viewer -- the engine's view holds an offer only for the
player it is made to."""

from django import template

from mahjong.engine.tiles import format_tile, parse_tiles

register = template.Library()


@register.inclusion_tag("stages/_offer.html", takes_context=True)
def stage_offer(context):
    view = context.get("view") or {}
    offer = (view.get("stage") or {}).get("offer")
    if not offer:
        return {"offer": None}
    me = view["seats"][context["seat"]]
    tiles = [format_tile(t) for t in parse_tiles(me["concealed"] or "")]
    if me["drawn"]:
        tiles.append(me["drawn"])
    return {
        "offer": offer,
        "own": tiles,
        "wall": sorted((offer.get("wall") or {}).items(), key=lambda kv: parse_tiles(kv[0])),
        "triplet": [format_tile(t) for t in parse_tiles(offer.get("triplet") or "")],
        "version": context["version"],
        "table": context["table"],
        "act_url": context["act_url"],
    }
