"""The recurscope command: every subcommand has help that ends with an example."""

from __future__ import annotations

import subprocess
import sys

import pytest

from recurscope.cli import COMMANDS, build_parser, main


def _subcommands() -> list[str]:
    return [name for _, _, names in COMMANDS for name in names]


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
