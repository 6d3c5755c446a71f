"""The finished games' rows, as the history reads them: their summaries, when the latest game
started, when a game's last action was stored, and which games have no row yet.

Each is one query of the store's (:meth:`.Store.read`), none where the table it reads is missing
(a database opened read-only from before summaries were kept).
"""

from __future__ import annotations

from typing import Any

from companion.table.store import Store


def summaries(store: Store, skip: int, most: int, since: float | None = None) -> list[Any]:
    """The stored summaries of finished games (JSON text, as stored), newest first: at most
    ``most`` after the newest ``skip``, of those that started at ``since`` or later when it is
    given."""
    where = "" if since is None else " AND started_at >= ?"
    values = () if since is None else (since,)
    return [
        text
        for (text,) in store.read(
            f"SELECT summary FROM results WHERE summary IS NOT NULL{where}"
            " ORDER BY game_id DESC LIMIT ? OFFSET ?",
            (*values, most, skip),
        )
    ]


def summary_of(store: Store, game_id: int) -> Any:
    """Game ``game_id``'s summary as stored, or ``None`` when it has not finished."""
    rows = store.read("SELECT summary FROM results WHERE game_id = ?", (game_id,))
    return rows[0][0] if rows else None


def last_start(store: Store) -> Any:
    """When the latest game started (Unix seconds, as stored), or ``None`` before the first."""
    rows = store.read("SELECT started_at FROM games ORDER BY id DESC LIMIT 1", ())
    return rows[0][0] if rows else None


def last_action_at(store: Store, game_id: int) -> Any:
    """When a game's last action was stored, or ``None`` when it has none."""
    rows = store.read(
        "SELECT at FROM actions WHERE game_id = ? ORDER BY n DESC LIMIT 1", (game_id,)
    )
    return rows[0][0] if rows else None


def unsettled(store: Store) -> list[int]:
    """The games without a row in ``results``, oldest first: the one being played, and those
    stored before summaries were kept."""
    return [
        gid
        for (gid,) in store.read(
            "SELECT id FROM games WHERE id NOT IN (SELECT game_id FROM results) ORDER BY id", ()
        )
    ]
