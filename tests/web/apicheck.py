"""What the web tests share: a test client that checks every answer it gets against the OpenAPI
document (its status is documented for that path and method, its body matches the schema) and
for the headers every answer must carry, and must not."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.datastructures import Headers
from werkzeug.test import TestResponse

from companion.web import create_app
from companion.web.openapi import document

HEARTBEAT_S = 0.05
"""The stream's heartbeat in the tests; a test never depends on how long it really takes."""
DOCUMENT_URI = "urn:companion:openapi"
_REGISTRY = Registry().with_resource(
    DOCUMENT_URI, Resource(contents=document(), specification=DRAFT202012)
)

Start = Callable[..., dict[int, dict[str, str]]]
"""The ``start`` fixture: start a game; each seat's Authorization header by seat number."""


def schema_at(pointer: str) -> Draft202012Validator:
    """A validator for the schema at a JSON pointer into the document."""
    return Draft202012Validator({"$ref": f"{DOCUMENT_URI}#{pointer}"}, registry=_REGISTRY)


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def documented(method: str, path: str, status: int) -> tuple[str, dict[str, Any]]:
    """The pointer to and the response object the document gives for an answer; fails the test
    when the document does not list that status for that path and method."""
    doc = document()
    item = doc["paths"].get(path)
    if item is None:
        assert status == 404, f"{method} {path}: {status} for a path the document lacks"
        name = "NotFound"
    elif (operation := item.get("get" if method == "HEAD" else method.lower())) is None:
        assert status == 405, f"{method} {path}: {status} for a method the document lacks"
        name = "MethodNotAllowed"
    else:
        responses = operation["responses"]
        assert str(status) in responses, f"{method} {path}: {status} is not documented"
        found = responses[str(status)]
        if "$ref" not in found:
            op = "get" if method == "HEAD" else method.lower()
            return f"/paths/{_escape(path)}/{op}/responses/{status}", found
        name = found["$ref"].rsplit("/", 1)[1]
    return f"/components/responses/{name}", doc["components"]["responses"][name]


def check(method: str, path: str, status: int, headers: Headers, body: bytes | None) -> None:
    """Check one answer against the document and the rules for headers; ``body`` is ``None``
    when it is a stream still coming."""
    names = {k.lower() for k in headers.keys()}  # noqa: SIM118
    assert not {h for h in names if h.startswith("access-control-")}, "a CORS header"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    if not path.startswith("/api/"):
        check_page(status, headers, body)
        return
    assert "set-cookie" not in names
    if path.startswith("/api/"):
        assert headers["Cache-Control"] == "no-store"
    if status == 405:
        assert headers.get("Allow")
    if status == 401:
        assert headers["WWW-Authenticate"].startswith("Bearer")
    pointer, answer = documented(method, path, status)
    media = headers.get("Content-Type", "").split(";")[0].strip()
    assert media in answer["content"], f"{method} {path}: {media} is not documented"
    if method == "HEAD" or media != "application/json" or body is None:
        return
    schema_at(f"{pointer}/content/{_escape(media)}/schema").validate(json.loads(body))


def check_page(status: int, headers: Headers, body: bytes | None) -> None:
    """A page or a static file: no cookie but the language's; a refusal is a JSON error too."""
    cookies = headers.getlist("Set-Cookie")
    assert all(c.startswith("lang=") for c in cookies), cookies
    if status >= 400:
        assert headers["Content-Type"] == "application/json"
        if body is not None:
            assert set(json.loads(body)["error"]) == {"code", "message"}


def check_answer(response: TestResponse) -> None:
    """Check an answer of the test client."""
    body = None if response.is_streamed else response.get_data()
    request = response.request
    check(request.method, request.path, response.status_code, response.headers, body)


class CheckedClient(FlaskClient):
    """Flask's test client, checking each answer as it comes."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        check_answer(response)
        return response


def checked_app(service: Any, **options: Any) -> Flask:
    """The app over ``service``, whose test clients check every answer."""
    app = create_app(service, heartbeat_s=HEARTBEAT_S, **options)
    app.test_client_class = CheckedClient
    return app


def bearer(token: str) -> dict[str, str]:
    """The header that carries ``token``."""
    return {"Authorization": f"Bearer {token}"}
