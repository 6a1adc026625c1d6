"""The ``recurscope`` command: a thin layer over the library.

All command-line code lives in this package, one module per command (as
sqlite-utils keeps its own in ``cli.py``); the library modules it drives never
import argparse. Each module registers its command through an
``add_command(subparsers)`` function; this module only assembles them. A
command whose extra is not installed still shows in ``--help`` and, when run,
says which extra to install.

The grammar every command follows (``docs/cli.md``): shared flags come from
:mod:`recurscope.cli._options`; ``--format`` names the output; errors read
``recurscope COMMAND: error: MESSAGE`` and exit 2 for usage, 1 at run time;
standard output closed early (``| head``) ends the command quietly with 141.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from recurscope.cli._options import EXIT_BROKEN_PIPE, EXIT_FAILURE, EXIT_USAGE, fail, run_command

# (module, extra it needs, commands it registers) — in the order --help lists them.
COMMANDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("recurscope.cli.detector_eval", "", ("detector-eval",)),
    ("recurscope.cli.cluster_eval", "pipeline", ("cluster-eval",)),
    ("recurscope.cli.ingest", "pipeline", ("ingest",)),
    ("recurscope.cli.serve", "pipeline", ("serve",)),
    ("recurscope.cli.report", "pipeline", ("report",)),
    ("recurscope.cli.compare", "pipeline", ("compare",)),
    ("recurscope.cli.validate", "pipeline", ("validate",)),
    ("recurscope.cli.export", "pipeline", ("export",)),
    ("recurscope.cli.prune", "pipeline", ("prune",)),
    ("recurscope.cli.sessions", "pipeline", ("sessions",)),
    ("recurscope.cli.quarantine", "pipeline", ("quarantine",)),
    ("recurscope.cli.replay", "pipeline", ("replay",)),
    ("recurscope.cli.simulate", "pipeline", ("simulate",)),
    ("recurscope.cli.dashboard", "dashboards", ("dashboard", "demo")),
)

EPILOG = """\
examples:
  recurscope detector-eval                      # precision/recall of history-access detection
  recurscope cluster-eval                       # precision/recall of near-duplicate code clusters
  recurscope ingest data/spans.jsonl            # read OTLP JSON lines into data/recurscope.duckdb
  recurscope serve                              # OTLP/HTTP receiver on 127.0.0.1:4318
  recurscope validate spans.json                # check another runtime's spans against the conventions
  recurscope report --format md                 # the verdict, pasteable into a design record
  recurscope sessions --since 7d                # the sessions stored, newest first
  recurscope quarantine                         # what could not be stored, and why
  recurscope replay chats.jsonl --budget 2000 --out r.jsonl  # each trim strategy on your chats
  recurscope simulate --scenario justified --out sim.jsonl  # simulated traffic, known verdict
  recurscope dashboard                          # the dashboard on http://127.0.0.1:8501
  recurscope demo                               # simulated demo data and its dashboard
"""


def _missing_extra(name: str, extra: str, error: ImportError) -> argparse.ArgumentParser:
    def run(_: argparse.Namespace) -> int:
        return fail(
            name,
            f"this command needs the [{extra}] extra: pip install 'recurscope[{extra}]' ({error})",
            EXIT_FAILURE,
        )

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


def _quiet_broken_pipe() -> int:
    """Standard output was closed early (``| head``): no traceback, and exit 141.

    Python's recipe: point stdout at /dev/null so the flush at exit cannot
    fail again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a file descriptor (a test's capture): nothing to flush
    return EXIT_BROKEN_PIPE


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code (0 ok, 1 failure, 2 usage, 141 broken pipe)."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            code = EXIT_USAGE
        else:
            # Commands wrap themselves with run_command; wrapping again is a
            # no-op for them and the one error form for any that do not.
            code = run_command(str(args.command), func)(args)
        sys.stdout.flush()  # a pipe closed at exit fails here, not in the interpreter
    except BrokenPipeError:
        return _quiet_broken_pipe()
    return code
