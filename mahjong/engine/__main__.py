"""``python -m mahjong.engine COMMAND``: JSON lines in, JSON lines out.

Each command lives in ``mahjong/engine/cli/<command>.py`` with ``add_arguments(parser)``
and ``run(args, stdin, stdout) -> int`` (the exit code).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Protocol, TextIO, cast

COMMANDS = {
    "shanten": "shanten and waits of hands",
    "simulate": "play random hands and check the invariants",
    "score": "score winning hands",
    "arena": "duplicate matches between bot levels",
    "verify": "rebuild a wall from its seed and check the commitment",
}


class Command(Protocol):
    """A command's module (see above)."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def run(self, args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int: ...


def _available() -> dict[str, Command]:
    modules: dict[str, Command] = {}
    for name in COMMANDS:
        try:
            modules[name] = cast(Command, importlib.import_module(f"mahjong.engine.cli.{name}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"mahjong.engine.cli.{name}":
                raise
    return modules


def main(argv: list[str] | None = None) -> int:
    modules = _available()
    parser = argparse.ArgumentParser(prog="python -m mahjong.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in modules.items():
        module.add_arguments(sub.add_parser(name, help=COMMANDS[name]))
    args = parser.parse_args(argv)
    return modules[args.command].run(args, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
