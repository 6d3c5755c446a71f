"""schemathesis over ``/api/openapi.json``: every endpoint, as every kind of caller.

Each operation of the document gets requests drawn from its own description, valid ones and
invalid ones (a wrong type, a missing field, an unknown one), sent in-process to the Flask app
over a simulated table with a game on, with a seat's token, the referee's, a token nobody holds,
or none. Whatever comes, the answer is never a 500 and matches the document: its status is
listed for that operation, its media type too, its body fits the schema, and it carries no CORS
header. The draws are derandomized, so every run sends the same requests; the long version
sends many more of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion.config import default_config
from companion.games.messages import REFEREE
from companion.table.service import TableService
from companion.web import create_app
from companion.web.openapi import document

CALLERS = ("none", "wrong", "seat", "referee")
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
OPERATIONS = [
    (method.upper(), path) for path, item in document()["paths"].items() for method in item
]
HEARTBEAT_S = 0.05
QUICK_EXAMPLES = 10
LONG_EXAMPLES = 60
STREAM_TIMEOUT_S = 0.1
"""How long one request reads the endless stream before it takes what came as the answer."""


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableService]:
    """One simulated table for the module: the fuzzing starts and ends games on it at will."""
    service = TableService(
        default_config(), Path(tmp_path_factory.mktemp("fuzz")), simulate=True, with_cues=False
    )
    service.start()
    yield service
    service.close()


@pytest.fixture(scope="module")
def schema(table: TableService) -> Any:
    """The document as schemathesis reads it from the running app."""
    app = create_app(table, heartbeat_s=HEARTBEAT_S)
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


def authorization(table: TableService, caller: str) -> dict[str, str]:
    """The header a caller sends; a seat's token is the current game's (one is started when
    the fuzzing has ended the last), so a seat is always a seat."""
    if caller == "none":
        return {}
    if caller == "wrong":
        return {"Authorization": "Bearer nobody-at-this-table-holds-this-token"}
    if caller == "referee":
        return {"Authorization": f"Bearer {table.referee_token}"}
    status = table.status()["game"]
    if status is None or status["over"]:
        table.start_game(REFEREE, {"game": "cool-runnings", "replace": True})
    claim = table.renew_claim(REFEREE, {"seat": 1})["claim"]
    token = table.claim({"claim": claim})["token"]
    return {"Authorization": f"Bearer {token}"}


def fuzz(table: TableService, schema: Any, method: str, path: str, examples: int) -> None:
    """For each caller, send up to ``examples`` drawn requests, valid and not, and check each."""
    operation = schema[path][method]
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )
    timeout = {"timeout": STREAM_TIMEOUT_S} if path == "/api/stream" else {}
    for caller in CALLERS:
        as_caller(table, cases, caller, examples, timeout)


def as_caller(
    table: TableService, cases: Any, caller: str, examples: int, timeout: dict[str, float]
) -> None:
    """Send up to ``examples`` of ``cases`` as ``caller``; each answer is checked."""

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases)
    def one(case: Any) -> None:
        headers = authorization(table, caller)
        response = case.call(headers=headers, **timeout)
        case.validate_response(response, checks=CHECKS, headers=headers)
        names = {name.lower() for name in response.headers}
        assert not {n for n in names if n.startswith("access-control-")}, "a CORS header"

    one()


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_every_answer_matches_the_document(
    table: TableService, schema: Any, method: str, path: str
) -> None:
    fuzz(table, schema, method, path, QUICK_EXAMPLES)


@pytest.mark.long
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_every_answer_matches_the_document_at_length(
    table: TableService, schema: Any, method: str, path: str
) -> None:
    fuzz(table, schema, method, path, LONG_EXAMPLES)
