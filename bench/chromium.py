"""Which Chromium drives the pages, for the bench and the browser tests alike.

Debian's ``chromium-headless-shell`` where it is installed (``.ci/run`` installs it): the same
engine without the full browser's window machinery, about a fifth of the CPU for each page
opened (0.4 against 2.2 core-s a phone, measured); else ``chromium`` itself.
"""

from __future__ import annotations

import shutil

CHROMIUM = (
    shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
)
"""The browser's executable, or None where none is installed."""
