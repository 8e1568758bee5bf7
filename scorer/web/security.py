"""What every response and request goes through: security headers, the body limits of each
endpoint, JSON-only APIs, cookies, and the host names absolute links may use."""
from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response, abort, request, url_for

from ..lan import lan_addresses
from ..limits import MAX_UPLOAD_BYTES
from ..settings import Settings

# No inline script or style anywhere; htmx is told not to inject its indicator style. A <base> may
# only name this site (a seat's page sets it: its board's addresses are relative, shared_boards).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
       "frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(self), microphone=(), geolocation=()",
}
JSON_BODY_BYTES = 256 * 1024     # the largest legal JSON request is a few KB
FORM_BODY_BYTES = 256 * 1024     # a 5-player score form is about 10 KB
UPLOAD_ENDPOINTS = {"scan.scan_post", "pages.score_scan", "pages.score_post"}  # photo uploads (the score page has a camera per player): the photo limit applies to these alone


def install(app: Flask, settings: Settings) -> None:
    app.config.update(
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SECURE=settings.behind_tls,
        PREFERRED_URL_SCHEME="https" if settings.behind_tls else "http",
    )
    if settings.trusted_hosts:
        app.config["TRUSTED_HOSTS"] = list(settings.trusted_hosts)
    app.jinja_env.globals["absolute_url"] = absolute_url
    app.before_request(_limit_body)
    app.after_request(_add_headers)


def _limit_body() -> None:
    """Small bodies everywhere but the photo upload; JSON APIs take JSON only, so a form on
    another site cannot post to them (a cross-site form can only send form or text types)."""
    upload = request.endpoint in UPLOAD_ENDPOINTS or (request.endpoint or "").startswith("box.")
    request.max_content_length = MAX_UPLOAD_BYTES if upload else max(JSON_BODY_BYTES, FORM_BODY_BYTES)
    if (request.method == "POST" and request.url_rule is not None and request.path.startswith("/api/")
            and request.mimetype != "application/json" and (request.content_length or request.mimetype)):
        abort(415)


def _add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def absolute_url(endpoint: str, **values: object) -> str:
    """A link other phones can open: on this server's own address, never one taken on trust from
    a request's Host header (a trusted-hosts setting, this machine's names, or its LAN address)."""
    url = url_for(endpoint, _external=True, **values)
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host in _own_hosts() and host not in ("localhost", "127.0.0.1", "::1"):
        return url
    addrs = lan_addresses()
    if not addrs:
        return url if host in _own_hosts() else urlunsplit(parts._replace(netloc="localhost"))
    netloc = addrs[0] + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _own_hosts() -> set[str]:
    from flask import current_app
    settings: Settings = current_app.config["SETTINGS"]
    import socket
    names = {"localhost", "127.0.0.1", "::1", socket.gethostname().lower(), f"{socket.gethostname().lower()}.local"}
    return names | set(lan_addresses()) | {h.split(":")[0] for h in settings.trusted_hosts}
