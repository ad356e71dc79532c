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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m mahjong.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    # Only the command asked for is imported: a CLI's first answer does not wait for the
    # others (the bots, the simulator) to load.
    chosen = argv[0] if argv and argv[0] in COMMANDS else None
    module = _command(chosen) if chosen else None
    for name, about in COMMANDS.items():
        subparser = sub.add_parser(name, help=about)
        if module is not None and name == chosen:
            module.add_arguments(subparser)
    args = parser.parse_args(argv)  # without a known command: the usage, and exit 2
    assert module is not None
    return module.run(args, sys.stdin, sys.stdout)


def _command(name: str) -> Command:
    return cast(Command, importlib.import_module(f"mahjong.engine.cli.{name}"))


if __name__ == "__main__":
    sys.exit(main())
