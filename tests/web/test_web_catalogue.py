"""The catalogues' plural forms: a text that says a number of things has a form for one and one
for many, in the shape the pages' ``t()`` reads (``static/js/common.js``); and the fair-dealing
box's title for each kind of game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from apicheck import Start
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.web.language import LANGUAGES, catalogue

TEMPLATES = Path(__file__).resolve().parents[2] / "companion" / "web" / "templates"
CATEGORIES = {"en": {"one", "other"}, "de": {"one", "other"}}
"""The plural categories of each page language (Intl.PluralRules, from CLDR) for whole numbers."""
COUNT_BEFORE_A_WORD = {
    "en": re.compile(r"\{(?:n|chips|points)\} (?!of\b)[a-z]"),
    "de": re.compile(r"\{(?:n|chips|points)\} [A-ZÄÖÜ]"),
}
"""A number of things in a text with a single form: "{n} parts", "{chips} Wasserball-Chips"."""


def forms(text: dict[str, str]) -> dict[str, str]:
    """A plural text's forms by category, without the name of its number."""
    return {category: form for category, form in text.items() if category != "count"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_text_with_plural_forms_has_its_language_s_forms_and_its_number(lang: str) -> None:
    plural = {key: text for key, text in catalogue(lang).items() if isinstance(text, dict)}
    assert "pool.take.foreign" in plural
    for key, text in plural.items():
        said = forms(text)
        assert "other" in said and set(said) <= CATEGORIES[lang], key
        assert all(isinstance(form, str) and form for form in said.values()), key
        assert "{" + text.get("count", "n") + "}" in said["other"], key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_that_counts_things_has_a_form_for_one_and_for_many(lang: str) -> None:
    texts = catalogue(lang)
    single = [
        k for k, t in texts.items() if isinstance(t, str) and COUNT_BEFORE_A_WORD[lang].search(t)
    ]
    assert single == []


def test_both_languages_count_a_text_s_things_by_the_same_number() -> None:
    english, german = catalogue("en"), catalogue("de")
    for key, text in english.items():
        if isinstance(text, dict) and isinstance(german[key], dict):
            assert text.get("count", "n") == german[key].get("count", "n"), key


def test_no_template_shows_a_text_with_plural_forms() -> None:
    """A template writes its texts as they are: it has no number to pick a form by."""
    named = {
        key
        for path in TEMPLATES.glob("*.html")
        for key in re.findall(r"""\bt\[\s*["']([^"']+)["']\s*\]""", path.read_text("utf-8"))
    }
    assert named
    for lang in LANGUAGES:
        assert [key for key in named if isinstance(catalogue(lang).get(key), dict)] == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_status_says_what_a_game_deals_and_the_catalogue_titles_its_fairness(
    client: FlaskClient, start: Start, game: str
) -> None:
    """The table page's fair-dealing box is titled by the status's ``dealt``: "Fair dealing"
    for the card game, "Fair dice" (German "Faires Würfeln") for the dice games."""
    start(game)
    dealt = client.get("/api/status").get_json()["game"]["dealt"]
    assert dealt == ("cards" if game == "cool-runnings" else "dice")
    titles = {lang: catalogue(lang)[f"fair.title.{dealt}"] for lang in LANGUAGES}
    assert (
        titles
        == {
            "cards": {"en": "Fair dealing", "de": "Faires Geben"},
            "dice": {"en": "Fair dice", "de": "Faires Würfeln"},
        }[dealt]
    )


def said_forms(text: str | dict[str, str]) -> list[str]:
    """A text's words: its one form, or each of its plural forms."""
    return [text] if isinstance(text, str) else list(forms(text).values())


def test_ice_trays_calls_its_cubes_eiswuerfel_in_german_never_a_bare_wuerfel() -> None:
    """In German "der Würfel" is the die: Ice Trays' words name a cube "Eiswürfel", always,
    and a bare "Würfel" only where the English speaks of the die."""
    english, german = catalogue("en"), catalogue("de")
    trays = [key for key in german if key.startswith(("trays.", "do.trays-"))]
    assert "trays.score.cubes" in trays and "trays.tie" in trays

    def speaks_of(key: str, words: str) -> bool:
        return any(re.search(words, f) for f in said_forms(english[key]))

    of_cubes = [key for key in trays if speaks_of(key, r"\bcube")]
    assert "do.trays-last-cubes" in of_cubes and "trays.key" in of_cubes
    bare = [
        key
        for key in trays
        if not speaks_of(key, r"\bdie\b")
        and any(re.search(r"\bWürfel", f) for f in said_forms(german[key]))
    ]
    assert bare == []
    for key in of_cubes:
        assert all("Eiswürfel" in f for f in said_forms(german[key])), (key, german[key])
