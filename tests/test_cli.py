"""The recurscope command: one grammar for every subcommand (docs/cli.md).

Every command has help that ends with an example; ``--format`` names the
output; every date flag reads the same dates; ``--db`` and the other shared
flags read the same everywhere; errors have one form and two exit codes; and
a closed pipe ends a command quietly.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recurscope.cli import COMMANDS, build_parser, main
from recurscope.cli._options import (
    EXIT_BROKEN_PIPE,
    UsageError,
    check_window,
    parse_until_arg,
    parse_when_arg,
    run_command,
)
from recurscope.pipeline.errors import PipelineError, StoreError

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "docs" / "golden-spans"


def _subcommands() -> list[str]:
    return [name for _, _, names in COMMANDS for name in names]


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return parser._option_string_actions.get(flag)


# -- help ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _subcommands())
def test_every_command_has_help_with_an_example(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`recurscope NAME --help` exits 0 and shows an example invocation."""
    with pytest.raises(SystemExit) as exit_info:
        main([name, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "example" in out.lower() and f"recurscope {name}" in out


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    """A bare `recurscope` prints the command list and exits 2."""
    assert main([]) == 2
    assert "detector-eval" in capsys.readouterr().out


def test_console_script_runs() -> None:
    """The installed console script answers --version."""
    result = subprocess.run(
        [sys.executable, "-m", "recurscope.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.startswith("recurscope ")


def test_parser_lists_all_commands() -> None:
    """The parser knows every command in the registry."""
    help_text = build_parser().format_help()
    for name in _subcommands():
        assert name in help_text


# -- 1. one output flag -------------------------------------------------------------------------

OUTPUT_FORMATS = {
    "report": ("md", "json"),
    "compare": ("md", "json"),
    "validate": ("text", "json"),
    "detector-eval": ("md", "json"),
}


@pytest.mark.parametrize(("name", "choices"), OUTPUT_FORMATS.items())
def test_format_names_the_output(name: str, choices: tuple[str, ...]) -> None:
    """--format chooses what a command prints, with its first choice the default."""
    sub = _subparsers()[name]
    shown = sub.format_help()
    assert "--format {" + ",".join(choices) + "}" in shown
    files = ["x.json"] if name == "validate" else []
    assert sub.parse_args(files).format == choices[0]
    assert sub.parse_args(["--format", choices[1], *files]).format == choices[1]
    assert "--json" not in shown  # the alias works but is not advertised


@pytest.mark.parametrize("name", OUTPUT_FORMATS)
def test_json_is_a_hidden_alias_of_format_json(name: str) -> None:
    """The old --json still selects JSON output."""
    extra = ["x.json"] if name == "validate" else []
    assert _subparsers()[name].parse_args(["--json", *extra]).format == "json"


@pytest.mark.parametrize("name", ["ingest", "validate"])
def test_input_format_is_its_own_flag(name: str) -> None:
    """--input-format names what a file holds, on both commands that read files."""
    args = _subparsers()[name].parse_args(["--input-format", "otlp-json", "x.json"])
    assert args.input_format == "otlp-json"
    assert _subparsers()[name].parse_args(["x.json"]).input_format == "auto"


def test_validate_old_format_flag_still_reads_the_input_format(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`validate --format otlp-json` still works, with one deprecation line naming --input-format."""
    assert main(["validate", "--format", "otlp-json", str(GOLDEN / "trim.json")]) == 0
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith("recurscope validate: warning:") and "--input-format otlp-json" in line
    assert "(otlp-json)" in captured.out and "0 failed" in captured.out  # text, read as asked


def test_validate_output_format_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`validate --format json` prints the JSON report and no warning."""
    assert main(["validate", "--format", "json", str(GOLDEN / "trim.json")]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and json.loads(captured.out)[0]["ok"]


def test_ingest_old_format_flag_still_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ingest --format otlp-json FILE` ingests, with one deprecation line naming --input-format."""
    db = tmp_path / "store.duckdb"
    code = main(["ingest", "--db", str(db), "--format", "otlp-json", str(GOLDEN / "call.json")])
    assert code == 0
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith("recurscope ingest: warning:") and "--input-format" in line
    assert "1 spans accepted" in captured.out


def test_an_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A --format that is neither an output nor an old input name exits 2, listing the choices."""
    with pytest.raises(SystemExit) as caught:
        main(["validate", "--format", "xml", "x.json"])
    assert caught.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("recurscope validate: error: argument --format: invalid choice")
    assert "'text', 'json'" in last


# -- 2. one date grammar ------------------------------------------------------------------------

DATE_FLAGS = {
    "report": ("--since", "--until"),
    "compare": ("--since", "--until", "--split-date"),
    "prune": ("--before",),
    "sessions": ("--since", "--until"),
}


@pytest.mark.parametrize(("name", "flags"), DATE_FLAGS.items())
def test_every_date_flag_uses_the_one_parser(name: str, flags: tuple[str, ...]) -> None:
    """Each date flag is typed by parse_when_arg (or parse_until_arg for --until), metavar WHEN."""
    sub = _subparsers()[name]
    for flag in flags:
        action = _option(sub, flag)
        assert action is not None
        assert action.type in (parse_when_arg, parse_until_arg) and action.metavar == "WHEN"
        assert (action.type is parse_until_arg) == (flag == "--until")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-01-31", datetime(2026, 1, 31)),
        ("2026-01-31T12:00:00", datetime(2026, 1, 31, 12)),
        ("2026-01-31T12:00:00Z", datetime(2026, 1, 31, 12)),
        ("2026-01-31 13:00+01:00", datetime(2026, 1, 31, 12)),
    ],
)
def test_absolute_dates_become_naive_utc(text: str, expected: datetime) -> None:
    """ISO dates and datetimes, with or without a zone (naive is UTC), give naive UTC."""
    assert parse_when_arg(text) == expected


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("30d", timedelta(days=30)),
        ("12h", timedelta(hours=12)),
        ("90m", timedelta(minutes=90)),
        ("2w", timedelta(weeks=2)),
    ],
)
def test_ages_mean_now_minus_that(text: str, age: timedelta) -> None:
    """30d, 12h, 90m and 2w are that long before now."""
    now = datetime.now(UTC).replace(tzinfo=None)
    assert abs(parse_when_arg(text) - (now - age)) < timedelta(seconds=5)
    # An age is an instant: as an upper bound it is not stretched to the end of a day.
    assert abs(parse_until_arg(text) - (now - age)) < timedelta(seconds=5)


def test_until_a_bare_date_includes_that_day() -> None:
    """--until 2026-01-31 runs to the next midnight; a datetime is taken as it is."""
    assert parse_until_arg("2026-01-31") == datetime(2026, 2, 1)
    assert parse_until_arg("2026-01-31T06:00Z") == datetime(2026, 1, 31, 6)


@pytest.mark.parametrize("text", ["yesterday", "2026-13-01", "30x", "", "99999999999w"])
def test_bad_dates_are_argument_errors(text: str) -> None:
    """Anything else is refused with the accepted forms in the message."""
    with pytest.raises(argparse.ArgumentTypeError):
        parse_when_arg(text)


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "--since", "yesterday"],
        ["compare", "--split-date", "soon", "--by", "role"],
        ["prune", "--before", "last tuesday"],
    ],
)
def test_a_bad_date_is_a_usage_error_naming_the_forms(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Every date flag refuses the same way: exit 2, the flag, the accepted forms."""
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith(f"recurscope {argv[0]}: error: argument {argv[1]}: not a date:")
    assert "30d" in last and "2026-03-01" in last


def test_report_takes_a_relative_since() -> None:
    """`report --since 30d` parses, as `prune --before 30d` always did."""
    args = _subparsers()["report"].parse_args(["--since", "30d"])
    assert isinstance(args.since, datetime) and args.since < datetime.now(UTC).replace(tzinfo=None)


@pytest.mark.parametrize("name", ["report", "compare"])
def test_since_after_until_is_refused(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--since after --until exits 2 with a message instead of printing an empty report."""
    extra = ["--by", "role"] if name == "compare" else []
    argv = [name, "--since", "2026-03-05", "--until", "2026-03-01", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"recurscope {name}: error: --since must be before --until")
    assert err.count("\n") == 1


def test_check_window_allows_a_one_day_window() -> None:
    """--since D --until D is the whole day D, not an empty window."""
    check_window(parse_when_arg("2026-03-01"), parse_until_arg("2026-03-01"))
    with pytest.raises(UsageError):
        check_window(parse_when_arg("2026-03-02"), parse_until_arg("2026-03-01"))


# -- 3. shared flags defined once ---------------------------------------------------------------


@pytest.mark.parametrize(
    "flag", ["--db", "--lock-timeout", "--prereg", "--include-simulated", "--detector-quality"]
)
def test_a_shared_flag_reads_the_same_everywhere(flag: str) -> None:
    """Every command with a shared flag gives it the same metavar and help (demo's store aside)."""
    seen = {
        name: _option(sub, flag)
        for name, sub in _subparsers().items()
        if _option(sub, flag) is not None and not (name == "demo" and flag == "--db")
    }
    assert len(seen) >= 2, seen
    metavars = {action.metavar for action in seen.values() if action is not None}
    helps = {
        (action.help or "").removesuffix("; opened read-only")
        for action in seen.values()
        if action is not None
    }
    assert len(metavars) == 1, metavars
    if flag != "--include-simulated":  # the dashboard's is a starting toggle
        assert len(helps) == 1, helps


def test_db_help_names_the_environment_variable_and_the_default() -> None:
    """--db PATH says $RECURSCOPE_DB and data/recurscope.duckdb on every command that has it."""
    for name, sub in _subparsers().items():
        action = _option(sub, "--db")
        if action is None or name == "demo":
            continue
        assert action.metavar == "PATH", name
        assert "$RECURSCOPE_DB" in (action.help or "") and "recurscope.duckdb" in (
            action.help or ""
        ), name


# -- 4. one error form --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["report"],
        ["compare", "--by", "role"],
        ["export", "--out", "out"],
        ["prune", "--session", "x"],
    ],
)
def test_a_missing_store_is_a_runtime_error(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A runtime failure prints `recurscope COMMAND: error: MESSAGE` on one line and exits 1."""
    db = tmp_path / "none.duckdb"
    assert main([*argv, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"recurscope {argv[0]}: error: ") and err.count("\n") == 1
    assert str(db) in err and "Traceback" not in err


def test_run_command_maps_errors_to_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """PipelineError -> 1, UsageError -> 2, with the message unchanged; other errors propagate."""

    def raising(error: Exception) -> int:
        raise error

    args = argparse.Namespace()
    store_error = run_command("x", lambda _: raising(StoreError("the store is gone")))
    assert store_error(args) == 1
    assert capsys.readouterr().err == "recurscope x: error: the store is gone\n"
    usage = run_command("x", lambda _: raising(UsageError("give --by")))
    assert usage(args) == 2
    assert capsys.readouterr().err == "recurscope x: error: give --by\n"
    custom = run_command("x", lambda _: raising(KeyError("k")), errors=(KeyError,))
    assert custom(args) == 1
    with pytest.raises(ZeroDivisionError):
        run_command("x", lambda _: raising(ZeroDivisionError()))(args)
    assert issubclass(StoreError, PipelineError)


def test_argparse_usage_errors_have_the_same_form(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse's own errors read `recurscope COMMAND: error: ...` and exit 2."""
    with pytest.raises(SystemExit) as caught:
        main(["export", "--compression", "rar", "--out", "x"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("recurscope export: error: ")


def test_detector_eval_missing_corpus_is_a_runtime_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """detector-eval's corpus errors take the same form and exit 1."""
    assert main(["detector-eval", "--corpus", str(tmp_path / "nope")]) == 1
    assert capsys.readouterr().err.startswith("recurscope detector-eval: error: corpus folder")


# -- 6. closed pipes ----------------------------------------------------------------------------


def test_a_closed_pipe_ends_quietly_with_141(tmp_path: Path) -> None:
    """`recurscope validate -v BIG | head -1`: one line out, no traceback, exit 141."""
    line = json.dumps(json.loads((GOLDEN / "call.json").read_text()), separators=(",", ":"))
    big = tmp_path / "big.jsonl"
    big.write_text((line + "\n") * 1500)  # ~100 KB of output: more than a pipe holds
    command = subprocess.Popen(
        [sys.executable, "-m", "recurscope.cli", "validate", "-v", str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert command.stdout is not None and command.stderr is not None
    head = subprocess.run(["head", "-1"], stdin=command.stdout, capture_output=True, check=True)
    command.stdout.close()
    code = command.wait(timeout=120)
    err = command.stderr.read().decode()
    command.stderr.close()
    assert head.stdout.decode().startswith(str(big))
    assert code == EXIT_BROKEN_PIPE, err
    assert "Traceback" not in err and "BrokenPipeError" not in err and err == ""


def test_main_turns_a_broken_pipe_into_141(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the command, a BrokenPipeError on output is exit 141, not a traceback."""
    import recurscope.cli.export as export_cli

    def broken(_: argparse.Namespace) -> int:
        raise BrokenPipeError

    monkeypatch.setattr(export_cli, "run_export_command", broken)
    assert main(["export", "--out", "x"]) == EXIT_BROKEN_PIPE


def test_a_missing_extra_is_a_runtime_error_in_the_one_form(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A command whose extra is absent says which to install, as `COMMAND: error:`, exit 1."""
    from recurscope.cli import _missing_extra

    stub = _missing_extra("ingest", "pipeline", ImportError("No module named 'duckdb'"))
    assert stub.get_default("func")(argparse.Namespace()) == 1
    err = capsys.readouterr().err
    assert err.startswith("recurscope ingest: error: this command needs the [pipeline] extra: ")
    assert "pip install 'recurscope[pipeline]'" in err
