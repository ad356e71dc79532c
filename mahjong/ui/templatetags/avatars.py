from django import template

from mahjong.ui.avatars import avatar_svg

register = template.Library()


@register.simple_tag
def avatar(key, size=28):
    """``{% avatar user.public_id 28 %}``: the player's generated face (mahjong.ui.avatars)."""
    return avatar_svg(str(key), int(size))
