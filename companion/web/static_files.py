"""The pages' scripts, styles and icons, sent gzip-compressed to a browser that takes it (every
phone does): eight phones share a table's Wi-Fi, and a script compresses to about a third.

A file is compressed once (until it changes on disk) and answered with its own ETag, so a phone
that has it gets a 304 as with the plain file.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from functools import lru_cache

from flask import Response, current_app, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response as BaseResponse


@lru_cache(maxsize=128)
def _compressed(path: str, mtime_ns: int, size: int) -> tuple[bytes, str]:
    """The file at ``path`` compressed, and its ETag; the same bytes for the same file."""
    with open(path, "rb") as file:
        body = gzip.compress(file.read(), compresslevel=9, mtime=0)
    return body, hashlib.sha256(body).hexdigest()[:32]


def send(filename: str) -> BaseResponse:
    """``/static/<filename>``: compressed where the browser takes gzip, else as Flask sends it."""
    folder = current_app.static_folder
    path = safe_join(folder, filename) if folder else None
    if path is None or not request.accept_encodings["gzip"] or not os.path.isfile(path):
        return current_app.send_static_file(filename)
    stat = os.stat(path)
    body, etag = _compressed(path, stat.st_mtime_ns, stat.st_size)
    kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
    response = Response(body, mimetype=kind)
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.set_etag(etag)
    response.cache_control.no_cache = True
    return response.make_conditional(request)
