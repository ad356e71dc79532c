from django import template

from ..bots import levels

register = template.Library()


@register.simple_tag
def bot_levels():
    """(slug, Chinese name, English name) of each bot level for the lobby's play-vs-bot picker."""
    return levels()
