"""Why a table closed (Table.note), in the language of whoever reads it.

A table closes on one player's request (leaving, the next hand refused) or on the
sweeper's, but the note is read by both players and by spectators, each in their own
language. So it is stored untranslated, the message and its arguments as JSON, and
translated when shown. A note written before this (plain text) is shown as
written.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext

NAME_LIMIT = 60  # a user name may be 150 characters; the note's column holds 200


def encode(message: str, **args) -> str:
    """``message`` is a msgid (marked with gettext_noop at the call site). A long
    argument (a player's name) is cut so that the note fits its column."""
    args = {
        k: v[: NAME_LIMIT - 1] + "…" if len(str(v)) > NAME_LIMIT else v for k, v in args.items()
    }
    return json.dumps({"msg": message, "args": args}, ensure_ascii=False)


def text(note: str) -> str:
    """The note in the active language."""
    try:
        data = json.loads(note)
        message, args = data["msg"], data["args"]
    except (ValueError, TypeError, KeyError):
        return note
    translated = gettext(message)
    return translated % args if args else translated
