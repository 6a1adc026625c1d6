"""The ``recurscope`` command: a thin layer over the library.

All command-line code lives in this package, one module per command (as
sqlite-utils keeps its own in ``cli.py``); the library modules it drives never
import argparse. Each module registers its command through an
``add_command(subparsers)`` function; this module only assembles them. A
command whose extra is not installed still shows in ``--help`` and, when run,
says which extra to install.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# (module, extra it needs, commands it registers) — in the order --help lists them.
COMMANDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("recurscope.cli.detector_eval", "", ("detector-eval",)),
    ("recurscope.cli.ingest", "pipeline", ("ingest",)),
    ("recurscope.cli.serve", "pipeline", ("serve",)),
    ("recurscope.cli.report", "pipeline", ("report",)),
    ("recurscope.cli.compare", "pipeline", ("compare",)),
    ("recurscope.cli.validate", "pipeline", ("validate",)),
    ("recurscope.cli.export", "pipeline", ("export",)),
    ("recurscope.cli.prune", "pipeline", ("prune",)),
    ("recurscope.cli.sessions", "pipeline", ("sessions",)),
    ("recurscope.cli.quarantine", "pipeline", ("quarantine",)),
    ("recurscope.cli.dashboard", "dashboards", ("dashboard", "demo")),
)

EPILOG = """\
examples:
  recurscope detector-eval                      # precision/recall of history-access detection
  recurscope ingest data/spans.jsonl            # read OTLP JSON lines into data/recurscope.duckdb
  recurscope serve                              # OTLP/HTTP receiver on 127.0.0.1:4318
  recurscope validate spans.json                # check another runtime's spans against the conventions
  recurscope report --format md                 # the verdict, pasteable into a design record
  recurscope sessions --since 7d                # the sessions stored, newest first
  recurscope quarantine                         # what could not be stored, and why
  recurscope dashboard                          # the dashboard on http://127.0.0.1:8501
  recurscope demo                               # simulated demo data and its dashboard
"""


def _missing_extra(name: str, extra: str, error: ImportError) -> argparse.ArgumentParser:
    def run(_: argparse.Namespace) -> int:
        print(
            f"recurscope {name} needs the [{extra}] extra: pip install 'recurscope[{extra}]'"
            f" ({error})",
            file=sys.stderr,
        )
        return 2

    parser = argparse.ArgumentParser(prog=f"recurscope {name}", add_help=True)
    parser.set_defaults(func=run)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="recurscope",
        description="Evidence on how agent runtimes use and lose conversation history.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from recurscope import __version__

    parser.add_argument("--version", action="version", version=f"recurscope {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name, extra, names in COMMANDS:
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            if not extra or (error.name or "").startswith("recurscope"):
                raise
            for name in names:
                sub = subparsers.add_parser(name, help=f"(needs the [{extra}] extra)")
                sub.set_defaults(func=_missing_extra(name, extra, error).get_default("func"))
            continue
        module.add_command(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return int(func(args) or 0)
