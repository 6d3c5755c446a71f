"""The pages' words in a real browser: a text that says a number of things takes its form for
one or for many by the page language's plural rules (``Intl.PluralRules``), and a list of names
is written as the reader's locale writes it (``Intl.ListFormat``)."""

from __future__ import annotations

import pytest
from background import in_background
from browsing import Phone, needs_chromium

from companion.cli import run as run_command
from companion.table.service import TableService
from companion.web.app import create_app

pytestmark = needs_chromium

SAID = """async () => {
  const { t } = await import("/static/js/common.js");
  const take = (chips) => t("pool.take.foreign", { chips }).split(": ")[1];
  const tub = (n) => t("odds.daddy-cool.tub", { n });
  return [take(1), take(2), take(0), tub(1), tub(2), t("odds.daddy-cool.tub")];
}"""
"""What the seat page's ``t()`` says of one, two and no water-ball chips, and of one, two and
an unknown number of floes."""


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "en-GB",
            [
                "1 water-ball chip for you, 1 point.",
                "2 water-ball chips for you, 1 point.",
                "0 water-ball chips for you, 1 point.",
                "reaching the tub (1 floe)",
                "reaching the tub (2 floes)",
                "reaching the tub ({n} floes)",
            ],
        ),
        (
            "de-DE",
            [
                "1 Wasserball-Chip für dich, 1 Punkt.",
                "2 Wasserball-Chips für dich, 1 Punkt.",
                "0 Wasserball-Chips für dich, 1 Punkt.",
                "den Waschzuber erreichen (1 Scholle)",
                "den Waschzuber erreichen (2 Schollen)",
                "den Waschzuber erreichen ({n} Schollen)",
            ],
        ),
    ],
)
def test_a_page_says_one_chip_and_two_chips_in_its_language(
    table: TableService, phone: Phone, locale: str, expected: list[str]
) -> None:
    server = run_command.make_server(create_app(table), "127.0.0.1", 0)
    with in_background(server) as port:
        page = phone(f"http://127.0.0.1:{port}/seat", locale=locale)
        assert page.evaluate(SAID) == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-GB", "Mia, Tom and Oma"), ("en-US", "Mia, Tom, and Oma"), ("de-DE", "Mia, Tom und Oma")],
)
def test_a_page_lists_names_as_its_reader_s_locale_writes_them(
    table: TableService, phone: Phone, locale: str, expected: str
) -> None:
    """Who plays on, who tied: a British page writes no comma before "and", an American one
    does (``Intl.ListFormat`` of the page's language alone gave every English page the latter)."""
    server = run_command.make_server(create_app(table), "127.0.0.1", 0)
    with in_background(server) as port:
        page = phone(f"http://127.0.0.1:{port}/seat", locale=locale)
        listed = 'async () => (await import("/static/js/common.js")).listed(["Mia", "Tom", "Oma"])'
        assert page.evaluate(listed) == expected
