"""The steps ``companion install-service`` is made of: each says why, shows what it would do and
does it, or says it is done already. A dry run shows every step and does none.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

Runner = Callable[[Sequence[str]], None]
"""What runs a step's command (a test passes one that records it)."""


class Step(Protocol):
    @property
    def why(self) -> str: ...

    @property
    def done(self) -> bool: ...

    def show(self, out: TextIO) -> None:
        """What the step does (or that it is done), below its ``why``."""

    def do(self, runner: Runner) -> None:
        """Do it."""


@dataclass(frozen=True)
class Command:
    why: str
    argv: tuple[str, ...]
    done: bool = False

    def show(self, out: TextIO) -> None:
        if self.done:
            print("    already done", file=out)
        else:
            print(f"    $ {shlex.join(self.argv)}", file=out, flush=True)

    def do(self, runner: Runner) -> None:
        runner(self.argv)


@dataclass(frozen=True)
class WriteFile:
    why: str
    path: Path
    text: str
    done: bool = False

    def show(self, out: TextIO) -> None:
        if self.done:
            print("    already done", file=out)
            return
        print(f"    {self.path}, mode 0644:", file=out)
        out.writelines(f"    | {line}".rstrip() + "\n" for line in self.text.splitlines())

    def do(self, runner: Runner) -> None:
        write_atomically(self.path, self.text)


def written(what: str, path: Path, text: str) -> WriteFile:
    """Writing ``text`` to ``path``: done when the file holds it already."""
    try:
        same = path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        same = False
    return WriteFile(f"write {what} {path}", path, text, done=same)


def carry_out(
    steps: Sequence[Step],
    dry_run: bool,
    runner: Runner | None = None,
    out: TextIO | None = None,
) -> None:
    """Print each step and do it, skipping those done; with ``dry_run`` print only."""
    out = out or sys.stdout
    for number, step in enumerate(steps, start=1):
        print(f"[{number}/{len(steps)}] {step.why}", file=out)
        step.show(out)
        if not step.done and not dry_run:
            step.do(runner or _run)


def _run(argv: Sequence[str]) -> None:
    subprocess.run(argv, check=True)


def write_atomically(path: Path, text: str) -> None:
    """Write a file readable by all (0644) whole or not at all: a temp file, fsync, rename."""
    path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.new")
    with open(temp, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), 0o644)
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)


def failure(exc: OSError | subprocess.CalledProcessError) -> str:
    """One line on a failed step."""
    if isinstance(exc, subprocess.CalledProcessError):
        return f"'{shlex.join(exc.cmd)}' failed with status {exc.returncode}"
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{exc.strerror or exc}"
