"""The table on the network: the Flask app, its JSON API, the status stream and its description.

:func:`create_app` builds the app over a running table service; ``companion run`` serves it
with waitress.
"""

from __future__ import annotations

from companion.web.app import create_app

__all__ = ["create_app"]
