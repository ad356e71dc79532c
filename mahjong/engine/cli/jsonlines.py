"""Shared JSON-lines loop: one output line per input line, errors as ``{"id", "error"}``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from ..errors import EngineError


def serve(stdin: TextIO, stdout: TextIO, handle: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    """Run ``handle`` on each JSON object read; an engine error or malformed line becomes
    an error object for that line, never a crash of the whole stream."""
    for line in stdin:
        if not line.strip():
            continue
        ident = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise EngineError("each line must be a JSON object")
            ident = request.get("id")
            result = {"id": ident, **handle(request)}
        except (EngineError, json.JSONDecodeError, KeyError, TypeError) as exc:
            result = {"id": ident, "error": _message(exc)}
        stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


def _message(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)
