"""The OpenAPI document: served as built, listing exactly the app's routes and methods, with
who may call each, a 503 on each, schemas that are valid JSON Schema 2020-12, and references
that all resolve. (That every answer matches it is checked by the test client on every call.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from apicheck import schema_at
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, ValidationError

from companion.web.openapi import document

PUBLIC = {
    "/api/status",
    "/api/stream",
    "/api/openapi.json",
    "/api/asyncapi.json",
    "/api/setup",
    "/api/curves",
    "/api/claim",
    "/api/referee-code",
    "/api/hotspot",
    "/api/history",
    "/api/standings",
    "/api/verify",
}
PAGES = {"/", "/seat", "/referee"}


def refs(value: Any) -> list[str]:
    """Every ``$ref`` in a JSON value."""
    if isinstance(value, dict):
        own = [value["$ref"]] if "$ref" in value else []
        return own + [r for v in value.values() for r in refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in refs(v)]
    return []


def test_the_document_is_served_as_built(client: FlaskClient) -> None:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.get_json() == document()
    assert document()["openapi"].startswith("3.1")


def test_the_document_lists_exactly_the_apps_routes_and_methods(client: FlaskClient) -> None:
    app = client.application
    routes: dict[str, list[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint != "static":
            methods = [m.lower() for m in rule.methods or () if m not in ("HEAD", "OPTIONS")]
            routes[rule.rule] = sorted(routes.get(rule.rule, []) + methods)
    described = {path: sorted(item) for path, item in document()["paths"].items()}
    assert routes == described


def test_each_operation_says_who_may_call_it_and_answers_503_when_the_table_fails() -> None:
    doc = document()
    assert doc["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": (
            "A seat's token (given by /api/claim to the phone that claimed the seat), or the "
            "referee's token."
        ),
    }
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            where = f"{method.upper()} {path}"
            assert "503" in operation["responses"], where
            if path in PUBLIC | PAGES:
                assert operation["security"] == [], where
            elif path == "/api/export":
                assert operation["security"] == [{}, {"bearer": []}]
            else:
                assert operation["security"] == [{"bearer": []}], where
                assert "401" in operation["responses"], where
            if method == "post":
                assert {"400", "413"} <= set(operation["responses"]), where


def test_every_schema_is_valid_and_every_reference_resolves() -> None:
    doc = document()
    for schema in doc["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    found = refs(doc)
    assert found
    for ref in found:
        assert re.fullmatch(r"#/components/(schemas|responses)/[A-Za-z]+", ref), ref
        kind, name = ref.split("/")[2:]
        assert name in doc["components"][kind], ref


@pytest.mark.parametrize(
    "body",
    [
        {"error": {"code": "x", "message": "Y."}, "more": 1},
        {"error": {"code": "x", "message": "Y.", "trace": "..."}},
        {"error": {"code": "Not Found", "message": "Y."}},
        {"error": {"code": "x", "message": ""}},
        {"error": "not found"},
        {"message": "not found"},
    ],
)
def test_the_error_shape_is_exact(body: dict[str, Any]) -> None:
    error = schema_at("/components/schemas/Error")
    error.validate({"error": {"code": "no-game", "message": "No game yet."}})
    with pytest.raises(ValidationError):
        error.validate(body)


def test_a_view_without_legal_actions_is_not_a_viewers_view() -> None:
    view = {
        "game": "ice-trays",
        "phase": "roll",
        "turn_seat": 1,
        "commitment": "0" * 64,
        "seats": [{"seat": 1, "name": "Karen", "colour": "blue"}],
        "viewer": 1,
    }
    schema_at("/components/schemas/View").validate(view)
    with pytest.raises(ValidationError):
        schema_at("/components/schemas/ViewerView").validate(view)
    schema_at("/components/schemas/ViewerView").validate(
        {**view, "legal_actions": [{"type": "trays-roll", "by": 1, "after": 0}]}
    )
    with pytest.raises(ValidationError):
        schema_at("/components/schemas/ViewerView").validate({**view, "legal_actions": [1]})


def test_the_status_is_described_closed_so_a_field_added_outside_its_classes_fails(
    client: FlaskClient,
) -> None:
    status = client.get("/api/status").get_json()
    check = schema_at("/components/schemas/Status")
    check.validate(status)
    seat = status["seats"][0]
    for changed in (
        {**status, "surprise": 1},
        {**status, "seats": [{**seat, "surprise": 1}, *status["seats"][1:]]},
        {**status, "seats": [{**seat, "sensors": {**seat["sensors"], "x": "ok"}}]},
    ):
        with pytest.raises(ValidationError):
            check.validate(changed)


def test_an_action_is_one_of_the_games_actions_with_every_field_it_needs() -> None:
    check = schema_at("/components/schemas/Action")
    check.validate({"type": "play-attack", "by": 1, "card": 3, "target": 2})
    offered = schema_at("/components/schemas/OfferedAction")
    offered.validate({"type": "play-attack", "by": 1, "card": 3, "target": 2, "after": 7})
    with pytest.raises(ValidationError):
        offered.validate({"type": "play-attack", "by": 1, "card": 3, "target": 2})
    check.validate({"type": "daddy-roll", "by": "referee"})
    for wrong in (
        {"type": "play-attack", "by": 1, "card": 3},
        {"type": "play-attack", "by": 1, "card": 3, "target": 2, "more": 1},
        {"type": "roll", "by": 1},
        {"by": 1},
    ):
        with pytest.raises(ValidationError):
            check.validate(wrong)
