"""Per-client rate limits on what creates something stored or costs real CPU: games, tables,
tallies, scans and learning a box. One table, applied to the endpoints by name, so the
blueprints stay free of it. Flask-Limiter (a well-kept library) counts; its memory storage is
per worker process, which is enough to stop one phone or script flooding a table-top server.

``PLANET_RATE_LIMITS=off`` turns them off (the load benches create a thousand games a minute
from one address); tests turn them off unless a test is about them.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from ..i18n import _


def _not_storing() -> bool:
    """A score or tally form posted by a stepper or an add button stores nothing."""
    return "finish" not in request.form


LIMITS: dict[str, tuple[str, Callable[[], bool] | None]] = {
    "tracker_api.new_game": ("20/minute;300/day", None),
    "tracker_pages.new_game": ("20/minute;300/day", lambda: request.method != "POST"),
    "pages.score_post": ("30/minute;1000/day", _not_storing),
    "stars.tally_post": ("30/minute;1000/day", _not_storing),
    "scan.scan_post": ("12/minute;300/day", None),
}
PREFIX_LIMITS = {"box.": ("30/minute;300/day", lambda: request.method != "POST")}
SCANS_AT_ONCE = 2   # photo readings running at once in one worker; more wait their turn elsewhere

limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", headers_enabled=True)
_scans = threading.BoundedSemaphore(SCANS_AT_ONCE)


def install(app: Flask, enabled: bool) -> None:
    app.config.setdefault("RATELIMIT_ENABLED", enabled)
    limiter.init_app(app)
    for endpoint, view in list(app.view_functions.items()):
        rule = LIMITS.get(endpoint) or next((v for p, v in PREFIX_LIMITS.items() if endpoint.startswith(p)), None)
        if rule is not None:
            limit, exempt = rule
            app.view_functions[endpoint] = limiter.limit(limit, exempt_when=exempt)(view)


class Busy(Exception):
    """Too much CPU work at once in this worker (answered 429 with a message)."""


@contextmanager
def one_of_few_scans() -> Any:
    """Hold one of this worker's few scan places, or raise ``Busy`` at once."""
    if not _scans.acquire(blocking=False):
        raise Busy(_("The app is reading other photos right now. Try again in a few seconds."))
    try:
        yield
    finally:
        _scans.release()
