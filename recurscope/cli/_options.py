"""Options, argument types and the one error form shared by every command.

A flag means the same thing, with the same metavar and help, wherever it
appears, because it is defined here once (as sqlite-utils shares its flags as
decorators); ``docs/cli.md`` describes the grammar. Command modules use:

``add_db_option(parser, *, read_only=False, help=None) -> None``
    ``--db PATH``: the store; default ``$RECURSCOPE_DB``, else
    ``data/recurscope.duckdb``. ``read_only`` adds "opened read-only" to the
    help; ``help`` replaces it (``demo``, whose store is its own).
``add_format_option(parser, choices, default) -> None``
    ``--format`` names the OUTPUT format (``md|json``, ``text|json``), with
    ``--json`` as a hidden alias of ``--format json`` when json is a choice.
``add_input_format_option(parser) -> None``
    ``--input-format`` (``auto`` or a registered format name). The old
    ``--format <input format>`` keeps working with one deprecation line on
    stderr. Call it after :func:`add_format_option` on a command having both.
``add_window_options(parser, *, what="spans", exploratory=False) -> None``
    ``--since WHEN`` and ``--until WHEN`` typed by :func:`parse_when_arg` and
    :func:`parse_until_arg`; :func:`check_window` refuses since >= until.
``parse_when_arg(text) -> datetime`` and ``parse_until_arg(text) -> datetime``
    argparse ``type=`` for every date flag: ISO date, ISO datetime (naive =
    UTC) or an age (``30d``, ``12h``, ``90m``, ``2w``: now minus that); a
    naive UTC datetime. ``parse_until_arg`` reads a bare date as the end of
    that day, for inclusive upper bounds.
``add_prereg_option``, ``add_include_simulated_option``,
``add_detector_quality_option``, ``add_lock_timeout_option`` (with
:func:`lock_wait`)
    The other flags several commands share.
``run_command(name, func, *, errors=()) -> func`` and ``@command(name)``
    The one error form: a :class:`UsageError` (flags that contradict each
    other, found after parsing) prints ``recurscope NAME: error: MESSAGE``
    and returns 2, like argparse's own usage errors; a ``PipelineError`` (or
    one of ``errors``) prints the same line and returns 1.
``note_snapshot(view, name) -> None``
    Say on stderr that a read command reads a snapshot (a writer holds the store).
``fail(name, message, code=1) -> int``
    Print that line and return ``code``, for errors a command reports and
    carries on after (one unreadable file of several).

Nothing here imports the pipeline at import time: ``detector-eval`` runs
without the ``[pipeline]`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any, Final

EXIT_OK: Final = 0
"""The command did what was asked."""

EXIT_FAILURE: Final = 1
"""A runtime failure (the store, a file, the data), or a result that says 'no' (a failing span)."""

EXIT_USAGE: Final = 2
"""A usage error: a bad flag or value, or flags that contradict each other."""

EXIT_BROKEN_PIPE: Final = 141
"""Standard output closed early (``| head``): 128 + SIGPIPE, what a C tool killed by it reports."""

Handler = Callable[[argparse.Namespace], "int | None"]


# --------------------------------------------------------------------------
# The one error form.


class UsageError(Exception):
    """A command-line mistake found after parsing (flags that contradict each other): exit 2."""


def fail(name: str, message: object, code: int = EXIT_FAILURE) -> int:
    """Print ``recurscope NAME: error: MESSAGE`` on stderr and return ``code``."""
    print(f"recurscope {name}: error: {message}", file=sys.stderr)
    return code


def _runtime_errors(extra: tuple[type[BaseException], ...]) -> tuple[type[BaseException], ...]:
    # A PipelineError can only have been raised if its module was imported.
    errors = sys.modules.get("recurscope.pipeline.errors")
    return (*extra, errors.PipelineError) if errors is not None else extra


def _unreadable(error: Exception) -> bool:
    """DuckDB could not read a file midway (a snapshot replaced or cut short under it)."""
    duckdb = sys.modules.get("duckdb")
    return duckdb is not None and isinstance(error, duckdb.IOException)


def run_command(
    name: str, func: Handler, *, errors: tuple[type[BaseException], ...] = ()
) -> Callable[[argparse.Namespace], int]:
    """``func`` with the one error form: usage errors return 2, ``PipelineError`` (and ``errors``) 1.

    The message is the error's own text, unchanged.
    """

    @functools.wraps(func)
    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args) or EXIT_OK)
        except UsageError as error:
            return fail(name, error, EXIT_USAGE)
        except Exception as error:
            if isinstance(error, _runtime_errors(errors)):
                return fail(name, error, EXIT_FAILURE)
            if _unreadable(error):
                from recurscope.pipeline.store.locking import unreadable_message

                return fail(name, unreadable_message(error), EXIT_FAILURE)
            raise

    return run


def command(
    name: str, *, errors: tuple[type[BaseException], ...] = ()
) -> Callable[[Handler], Callable[[argparse.Namespace], int]]:
    """Decorator form of :func:`run_command`: ``@command("report")``."""
    return functools.partial(run_command, name, errors=errors)


# --------------------------------------------------------------------------
# Dates.


def _parse(text: str, *, end: bool) -> datetime:
    from recurscope.pipeline.errors import PipelineError
    from recurscope.pipeline.verdict.report import parse_when

    try:
        moment: datetime = parse_when(text, end=end)
    except PipelineError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return moment


def parse_when_arg(text: str) -> datetime:
    """argparse type of a date flag (``--since``, ``--before``, ``--split-date``): naive UTC."""
    return _parse(text, end=False)


def parse_until_arg(text: str) -> datetime:
    """argparse type of an inclusive upper bound (``--until``): a bare date includes its day."""
    return _parse(text, end=True)


WHEN_HELP: Final = "a date, a date/time (UTC unless it names a zone) or an age such as 30d"


def add_window_options(
    parser: argparse.ArgumentParser, *, what: str = "spans", exploratory: bool = False
) -> None:
    """``--since WHEN`` and ``--until WHEN``; check them with :func:`check_window`."""
    prefix = "exploratory: " if exploratory else ""
    parser.add_argument(
        "--since",
        type=parse_when_arg,
        metavar="WHEN",
        help=f"{prefix}only {what} from this moment: {WHEN_HELP}",
    )
    parser.add_argument(
        "--until",
        type=parse_until_arg,
        metavar="WHEN",
        help=f"{prefix}only {what} before this moment; a bare date includes that whole day",
    )


def check_window(since: datetime | None, until: datetime | None) -> None:
    """Raise :class:`UsageError` when ``since`` is not before ``until``: the window is empty."""
    if since is not None and until is not None and since >= until:
        whole_day = (
            " (a bare --until date counts to the end of that day)"
            if until.time() == (datetime.min.time())
            else ""
        )
        raise UsageError(
            f"--since must be before --until: they give the window from "
            f"{since.isoformat(sep=' ')} to {until.isoformat(sep=' ')} UTC, which is "
            f"empty{whole_day}"
        )


# --------------------------------------------------------------------------
# Output and input formats.


class _FormatAction(argparse.Action):
    """``--format``: an output format, or (deprecated) an input format name."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        output_choices: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.output_choices = tuple(output_choices)
        self.input_choices: tuple[str, ...] = ()

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        value = str(values)
        if value in self.output_choices:
            setattr(namespace, self.dest, value)
        elif value in self.input_choices:
            print(
                f"{parser.prog}: warning: --format {value} names an input format, which is "
                f"now --input-format {value}; --format names the output format",
                file=sys.stderr,
            )
            namespace.input_format = value
        elif self.output_choices:
            choices = ", ".join(repr(c) for c in self.output_choices)
            raise argparse.ArgumentError(self, f"invalid choice: {value!r} (choose from {choices})")
        else:
            choices = ", ".join(repr(c) for c in self.input_choices)
            raise argparse.ArgumentError(
                self, f"invalid choice: {value!r} (use --input-format, one of {choices})"
            )


def add_format_option(
    parser: argparse.ArgumentParser, choices: Sequence[str], default: str
) -> None:
    """``--format`` naming the output format; ``--json`` a hidden alias of ``--format json``."""
    parser.add_argument(
        "--format",
        action=_FormatAction,
        output_choices=tuple(choices),
        default=default,
        metavar="{" + ",".join(choices) + "}",
        help=f"output format (default: {default})",
    )
    if "json" in choices:
        parser.add_argument(
            "--json", action="store_const", const="json", dest="format", help=argparse.SUPPRESS
        )


def add_input_format_option(parser: argparse.ArgumentParser) -> None:
    """``--input-format``; the old ``--format NAME`` still sets it, with a deprecation line."""
    from recurscope.pipeline.decode.formats import format_names

    choices = ("auto", *format_names())
    parser.add_argument(
        "--input-format",
        default="auto",
        choices=choices,
        metavar="FORMAT",
        help=f"input format: {', '.join(choices)} (default: auto-detect per file)",
    )
    existing = parser._option_string_actions.get("--format")
    if isinstance(existing, _FormatAction):
        existing.input_choices = choices
    else:
        legacy = parser.add_argument(
            "--format", action=_FormatAction, default=argparse.SUPPRESS, help=argparse.SUPPRESS
        )
        assert isinstance(legacy, _FormatAction)
        legacy.input_choices = choices


# --------------------------------------------------------------------------
# The store and the flags several commands share.


def note_snapshot(view: Any, name: str) -> None:
    """Say on stderr when a read command reads a snapshot because a writer holds the store."""
    if view.source == "snapshot":
        print(f"recurscope {name}: reading a {view.describe()}", file=sys.stderr)


def add_db_option(
    parser: argparse.ArgumentParser, *, read_only: bool = False, help: str | None = None
) -> None:
    """``--db PATH``: the DuckDB store (default ``$RECURSCOPE_DB``, else ``data/recurscope.duckdb``)."""
    from recurscope.pipeline.store.database import DB_ENV_VAR, DEFAULT_DB_PATH

    text = f"the DuckDB store (default: ${DB_ENV_VAR}, else {DEFAULT_DB_PATH})"
    parser.add_argument(
        "--db", metavar="PATH", help=help or (text + "; opened read-only" if read_only else text)
    )


def add_prereg_option(parser: argparse.ArgumentParser) -> None:
    """``--prereg PATH``: the pre-registration TOML."""
    parser.add_argument(
        "--prereg",
        metavar="PATH",
        help="pre-registration TOML (default: data/preregistration.toml)",
    )


def add_detector_quality_option(parser: argparse.ArgumentParser) -> None:
    """``--detector-quality PATH``: detector precision/recall JSON ('' for none)."""
    parser.add_argument(
        "--detector-quality",
        metavar="PATH",
        help="detector precision/recall JSON, as `recurscope detector-eval --format json` "
        "writes it (default: data/detector-quality.json; '' for none)",
    )


def add_include_simulated_option(
    parser: argparse.ArgumentParser, *, help: str | None = None
) -> None:
    """``--include-simulated``: also use simulated and replayed spans."""
    parser.add_argument(
        "--include-simulated",
        action="store_true",
        help=help
        or "also use simulated and replayed spans (recurscope.origin); the output says so. "
        "Without it only observed spans count",
    )


def add_lock_timeout_option(parser: argparse.ArgumentParser) -> None:
    """``--lock-timeout SECONDS`` for commands that write; read it back with :func:`lock_wait`."""
    from recurscope.pipeline.store.locking import DEFAULT_LOCK_TIMEOUT

    parser.add_argument(
        "--lock-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help=(
            "wait this long for another process to release the store (default: "
            f"{DEFAULT_LOCK_TIMEOUT:g} s for recurscope processes and readers, no wait for "
            "other programs writing it; giving a value waits for any holder)"
        ),
    )


def lock_wait(args: argparse.Namespace) -> dict[str, Any]:
    """``lock_timeout=`` and ``wait_for_other_programs=`` for ``open_for_writing`` from the flag."""
    from recurscope.pipeline.store.locking import DEFAULT_LOCK_TIMEOUT

    explicit = args.lock_timeout is not None
    return {
        "lock_timeout": args.lock_timeout if explicit else DEFAULT_LOCK_TIMEOUT,
        "wait_for_other_programs": explicit,
    }


# --------------------------------------------------------------------------
# Sizes.

_SIZE_UNITS: Final = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "kib": 1024,
    "m": 1000**2,
    "mb": 1000**2,
    "mib": 1024**2,
    "g": 1000**3,
    "gb": 1000**3,
    "gib": 1024**3,
}


def parse_size(text: str) -> int:
    """'64MiB', '1GB', '4096' -> bytes (for the limit flags)."""
    stripped = text.strip().lower()
    number = stripped.rstrip("abcdefghijklmnopqrstuvwxyz")
    unit = stripped[len(number) :]
    try:
        value = float(number)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 64MiB, 1GB, 4096)") from None
    if unit not in _SIZE_UNITS or value <= 0:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 64MiB, 1GB, 4096)")
    return int(value * _SIZE_UNITS[unit])


def parse_size_or_zero(text: str) -> int:
    """:func:`parse_size`, also accepting 0."""
    return 0 if text.strip() == "0" else parse_size(text)


def non_negative_int(text: str) -> int:
    """argparse type of a count where 0 means "no limit" (``--limit``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def positive_int(text: str) -> int:
    """argparse type of a count of at least 1."""
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


@contextlib.contextmanager
def progress_bar(
    enabled: bool, total: int, doing: str, unit: str
) -> Iterator[Callable[[], None] | None]:
    """A rich progress bar on stderr (``doing 12/40 unit``); yields its advance, or None."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn(doing),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    ) as progress:
        task = progress.add_task(doing, total=total)
        yield lambda: progress.advance(task)


def add_span_output_options(parser: argparse.ArgumentParser) -> None:
    """``--out FILE`` or ``--endpoint URL``: where a command that makes spans sends them."""
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--out", metavar="FILE", help="write the spans to FILE as OTLP JSON lines (replaced)"
    )
    output.add_argument(
        "--endpoint",
        metavar="URL",
        help="send the spans to a running `recurscope serve` (OTLP/HTTP, e.g. "
        "http://127.0.0.1:4318; it stores them with --accept-simulated)",
    )


def add_progress_option(parser: argparse.ArgumentParser, *, when: str) -> None:
    """``--progress/--no-progress`` (default ``None``: decided by the command, as ``when`` says)."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"show a progress bar on stderr (default: {when})",
    )
