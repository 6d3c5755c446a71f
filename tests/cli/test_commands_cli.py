"""``companion`` lists every subcommand and loads only the one it runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from commandline import run

from companion.cli import COMMANDS, build_parser, command_module

PROBE = """
import json, sys
from companion.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""
"""``companion ARGV`` as the console script runs it, then the modules it imported."""


def imported_by(*argv: str) -> tuple[str, list[str]]:
    """What ``companion ARGV`` printed, and the modules it imported, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    printed, _, modules = done.stdout.rstrip().rpartition("\n")
    return printed, json.loads(modules)


def subcommands_in(modules: list[str]) -> set[str]:
    """The subcommands whose modules are among ``modules``."""
    names = {m.split(".")[2] for m in modules if m.startswith("companion.cli.")}
    return names - {"arguments"}


def test_help_lists_every_subcommand_and_loads_none() -> None:
    printed, modules = imported_by("--help")
    for name, line in COMMANDS.items():
        assert name in printed
        assert line.split()[0] in printed
    assert subcommands_in(modules) == set()
    assert not [m for m in modules if m.split(".")[0] in {"flask", "werkzeug", "serial"}]
    assert "companion.table" not in modules and "companion.config" not in modules


@pytest.mark.parametrize("name", ["run", "melt"])
def test_a_subcommand_loads_itself_alone(name: str) -> None:
    printed, modules = imported_by(name, "--help")
    assert printed.startswith(f"usage: companion {name}")
    assert subcommands_in(modules) == {name}


def test_the_help_without_the_subcommands_is_the_help_with_them() -> None:
    assert build_parser(load=())[0].format_help() == build_parser()[0].format_help()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_subcommand_module_adds_the_parser_of_its_name(name: str) -> None:
    whole = build_parser(load=[name])[1]
    assert list(whole) == list(COMMANDS)
    assert "[-h]" in whole[name].format_usage()
    assert "[-h]" not in build_parser(load=())[1][name].format_usage()
    assert command_module(name).__name__ == f"companion.cli.{name.replace('-', '_')}"


@pytest.mark.parametrize(
    "argv",
    [["run", "--simulat"], ["sensors", "--simulat", "--once"], ["melt", "replay", "a.csv", "--js"]],
)
def test_an_abbreviated_option_is_refused_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse took ``--simulat`` for ``--simulate``: a typo ran a simulated table instead of
    the real one, or failed the day an option sharing the prefix came."""
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    word = next(w for w in argv if w in ("--simulat", "--js"))
    assert err.count("\n") == 1 and f"unrecognized arguments: {word}" in err, err
