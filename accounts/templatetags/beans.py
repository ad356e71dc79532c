"""`{{ n|beans }}`: 20,000 in every language.

humanize's intcomma follows the locale, and zh-hans has no thousands separator, so a
template and a flash message (formatted in Python with `,`) would disagree.
"""

from django import template

register = template.Library()


@register.filter
def beans(value):
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return value
