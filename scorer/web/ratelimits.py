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

from flask import Flask, current_app, request
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
# Photos in one worker: read one at a time (two workers on two cores: two at once, and the
# score API kept p95 129 ms beside a flood of them where two a worker gave 835 ms, with more
# photos read), a few more waiting their turn (a table scanning its planets together), the
# rest refused at once with a message. python -m scorer.flood_bench measures it.
SCANS_AT_ONCE = 1
SCANS_WAITING = 6
SCAN_WAIT = 15.0    # seconds a photo may wait for its turn before it is refused

limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", headers_enabled=True)


@limiter.request_filter
def _unlimited() -> bool:
    """An endpoint without a limit of its own (``LIMITS``, ``PREFIX_LIMITS``) is not counted."""
    return request.endpoint not in current_app.extensions.get("rate_limited", ())


class Busy(Exception):
    """Too much CPU work at once in this worker (answered 429 with a message)."""


def busy_message() -> str:
    return _("The app is reading other photos right now. Try again in a few seconds.")


class ScanPlaces:
    """A worker's places for photos: ``reading`` read at once, ``waiting`` more wait their turn
    (at most ``wait`` seconds), any more are refused at once. Made per app, in the worker that
    uses it (a gevent lock made before the fork and waited on after it would hold the worker)."""

    def __init__(self, reading: int = SCANS_AT_ONCE, waiting: int = SCANS_WAITING, wait: float = SCAN_WAIT):
        self.reading = threading.BoundedSemaphore(reading)
        self.queue = threading.BoundedSemaphore(reading + waiting)
        self.wait = wait

    def full(self) -> bool:
        """No place left, to read or to wait: a photo posted now would be refused."""
        if not self.queue.acquire(blocking=False):
            return True
        self.queue.release()
        return False

    @contextmanager
    def one(self) -> Any:
        """Hold a place to read one photo, waiting for it if need be, or raise ``Busy``."""
        if not self.queue.acquire(blocking=False):
            raise Busy(busy_message())
        try:
            if not self.reading.acquire(timeout=self.wait):
                raise Busy(busy_message())
            try:
                yield
            finally:
                self.reading.release()
        finally:
            self.queue.release()


def install(app: Flask, enabled: bool) -> None:
    app.config.setdefault("RATELIMIT_ENABLED", enabled)
    limiter.init_app(app)
    app.extensions["scan_places"] = ScanPlaces()
    app.before_request_funcs.setdefault(None, []).insert(0, _refuse_when_scans_full)  # first of all
    limited = set()
    for endpoint, view in list(app.view_functions.items()):
        rule = LIMITS.get(endpoint) or next((v for p, v in PREFIX_LIMITS.items() if endpoint.startswith(p)), None)
        if rule is not None:
            limit, exempt = rule
            app.view_functions[endpoint] = limiter.limit(limit, exempt_when=exempt)(view)
            limited.add(endpoint)
    # Every other endpoint has no limit: it is let through before Flask-Limiter works out its
    # limits (a tenth of a millisecond on each of the phones' boards and moves).
    app.extensions["rate_limited"] = frozenset(limited)


def scans_full() -> bool:
    """Every scan place of this worker is taken: a photo posted now would be refused. Asked before
    the upload is parsed, so a flood of refused photos costs no form parsing (the server only
    drains their bytes); ``one_of_few_scans`` still decides for the photos that get past."""
    return bool(current_app.extensions["scan_places"].full())


def when_scans_full(answer: Callable[[], Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a view that reads a photo: with every scan place of the worker taken, ``answer()`` is
    sent instead (unless it gives None), before anything parses the upload, the CSRF check
    included (a refusal changes nothing, so it needs no token)."""
    def mark(view: Callable[..., Any]) -> Callable[..., Any]:
        view.when_scans_full = answer  # type: ignore[attr-defined]
        return view
    return mark


def _refuse_when_scans_full() -> Any:
    view = current_app.view_functions.get(request.endpoint or "")
    answer = getattr(view, "when_scans_full", None)
    if answer is not None and request.method == "POST" and scans_full():
        return answer()
    return None


def one_of_few_scans() -> Any:
    """This worker's place to read one photo (a context manager), or ``Busy``."""
    return current_app.extensions["scan_places"].one()
