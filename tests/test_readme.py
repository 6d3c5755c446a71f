"""The README a family reads first: its first two commands, the quick start short enough to read
at the table, the whole page short, and every relative link of it, of ``docs/`` and of
``bench/README.md`` reaching a file (and a heading, where it names one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAKERS_HEADING = "## On a Raspberry Pi"
PAGES = [README, ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def lines() -> list[str]:
    return README.read_text(encoding="utf-8").splitlines()


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file (a repeated one gets -1, -2, ... as on GitHub)."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+?)#*\s*$", text, flags=re.M):
        name = base = slug(heading)
        n = 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def test_slugs_are_github_s() -> None:
    assert slug("Two builds: which to choose") == "two-builds-which-to-choose"
    assert slug("The table's own Wi-Fi") == "the-tables-own-wi-fi"
    assert slug("1. Phones only") == "1-phones-only"
    assert slug("Checked on every base: make pi-check") == "checked-on-every-base-make-pi-check"


def test_the_first_two_commands_are_make_run_and_make_test() -> None:
    block = re.search(r"^```(?:sh|bash|shell)?\n(.*?)^```", README.read_text("utf-8"), re.S | re.M)
    assert block is not None, "the README has no code block"
    commands = [line.split("#", 1)[0].strip() for line in block.group(1).splitlines()]
    commands = [c for c in commands if c]
    assert commands[:2] == ["make run", "make test"], commands[:2]
    for line in block.group(1).splitlines()[:2]:
        assert "#" in line and line.split("#", 1)[1].strip(), f"no comment on {line!r}"


def test_the_quick_start_ends_at_the_maker_s_section_within_150_lines() -> None:
    text = lines()
    assert MAKERS_HEADING in text, f"no {MAKERS_HEADING!r} heading in the README"
    before = text.index(MAKERS_HEADING)
    assert before < 150, f"{before} lines from the README's top to {MAKERS_HEADING!r}"
    quick = "\n".join(text[:before])
    for way in ("Phones only", "buzzer, LEDs and buttons", "full kit"):
        assert way in quick, f"the quick start does not name {way!r}"
    assert "make run SENSORS=none" in quick and "--no-sensors" in quick


def test_the_readme_is_under_350_lines() -> None:
    assert len(lines()) < 350, f"the README has {len(lines())} lines"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_its_heading(page: Path) -> None:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    links = [link for link in LINK.findall(text) if not re.match(r"[a-z]+:", link)]
    assert links or page != README, "the README links to nothing"
    for link in links:
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        where = page.relative_to(ROOT)
        assert path.exists(), f"{where} links to {link}, which is not there"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{where}: no heading for {link}"


def test_the_docs_are_all_linked_from_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert f"](docs/{doc.name}" in text, f"the README does not link to docs/{doc.name}"


def makers_section() -> str:
    """The README's "On a Raspberry Pi", up to the next section of its own level."""
    text = README.read_text(encoding="utf-8")
    return text.split(f"\n{MAKERS_HEADING}\n", 1)[1].split("\n## ", 1)[0]


def test_the_maker_s_first_apt_line_brings_python3_lgpio() -> None:
    """Raspberry Pi OS packages lgpio, so trixie's Python 3.13 needs no compiler for it."""
    first = re.search(r"`sudo apt install ([^`]*)`", makers_section())
    assert first is not None, "the maker's section installs nothing with apt"
    assert {"git", "make", "python3-venv", "python3-lgpio"} <= set(first.group(1).split())


def test_the_maker_s_section_says_how_to_update() -> None:
    section = makers_section()
    assert "\n### Updating\n" in section
    updating = section.split("\n### Updating\n", 1)[1].split("\n### ", 1)[0]
    assert "`git pull`" in updating
    assert "`sudo .venv/bin/companion install-service`" in updating
    assert "restarts" in updating and "/var/lib/companion" in updating
