"""Page weight: the bytes a phone downloads for each page, with every script and style it loads.

``companion run`` is started on the simulated table as its own process and asked, over HTTP, for
each page in each language; then for every ``/static/`` file the page names and every module a
script imports (followed from the scripts as served). The value is the heaviest page; the goal is
at most 60 KB, counted in thousands of bytes, as the page tests count it (the QR codes, drawn
later for a started game, aside).
"""

from __future__ import annotations

import re
import tempfile
import urllib.request
from pathlib import Path

from bench.daemon import Daemon, start
from bench.report import BenchFailure, Result
from companion.web.language import LANGUAGES
from companion.web.pages import IMPORT, PAGES

GOAL_KB = 60.0
LINK = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return bytes(answer.read())


def weigh(daemon: Daemon, path: str) -> dict[str, int]:
    """The bytes of a page and of everything it loads, by path."""
    html = fetch(daemon.url + path)
    sizes = {path: len(html)}
    waiting = LINK.findall(html.decode())
    while waiting:
        link = waiting.pop()
        if link in sizes:
            continue
        body = fetch(daemon.url + link)
        if not body:
            raise BenchFailure(f"pages: {link} is empty")
        sizes[link] = len(body)
        if link.endswith(".js"):
            folder = link.rsplit("/", 1)[0]
            waiting += [f"{folder}/{name}" for name in IMPORT.findall(body.decode())]
    return sizes


def run(quick: bool = False) -> Result:
    """Weigh every page in every language (the same in quick mode: it is quick)."""
    with tempfile.TemporaryDirectory() as folder:
        daemon = start(Path(folder))
        try:
            weights = {
                f"{page} ({lang})": sum(weigh(daemon, f"{path}?lang={lang}").values())
                for page, path in PAGES.items()
                for lang in LANGUAGES
            }
        finally:
            daemon.stop()
    heaviest = max(weights, key=weights.__getitem__)
    return Result(
        "page weight",
        weights[heaviest] / 1000,
        "KB",
        None,
        GOAL_KB,
        "lower",
        f"the heaviest page, {heaviest}, with its scripts and styles; "
        + ", ".join(f"{name} {size / 1000:.1f}" for name, size in weights.items())
        + " KB",
        extra={"bytes": weights},
    )
