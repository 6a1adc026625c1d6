"""The ``recurscope`` command: a thin layer over the library.

Each command lives next to the code it drives and registers itself through an
``add_command(subparsers)`` function; this module only assembles them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def _registrars() -> list[Registrar]:
    registrars: list[Registrar] = []
    return registrars


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="recurscope",
        description="Evidence on how agent runtimes use and lose conversation history.",
        epilog="Example: recurscope detector-eval --corpus data/detector-corpus",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _registrars():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return int(func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
