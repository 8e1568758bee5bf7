"""Shared fixtures: an app on a temporary database, a live server, and a phone-sized browser.

Browser tests drive Debian's Chromium (``/usr/bin/chromium``, installed by ``make test``) through
Playwright at 390×844. Screenshots go to ``test-artifacts/`` (or ``$PLAYWRIGHT_ARTIFACTS``).
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import threading
from pathlib import Path

import pytest

from scorer.web import create_app

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("PLAYWRIGHT_ARTIFACTS", ROOT / "test-artifacts"))
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


# PLANET_TEST_DATABASE_URL runs the suite on another database (CI runs the database-touching
# tests on PostgreSQL too); each test then starts from empty tables.
OTHER_DATABASE = os.environ.get("PLANET_TEST_DATABASE_URL")


def database_url(tmp_path, name: str) -> str:
    return OTHER_DATABASE or f"sqlite:///{tmp_path / name}"


def close_database(app, *others) -> None:
    """The test's database closed (on PostgreSQL, its tables dropped), with ``others``: more apps
    on the same database, as more server processes."""
    for each in (*others, app):
        each.extensions["live"].stop()  # its watcher would go on reading the tables dropped below
    for other in others:
        other.extensions["db"].dispose()
    db = app.extensions["db"]
    if OTHER_DATABASE:
        from scorer.db import Base
        Base.metadata.drop_all(db.engine)
    db.dispose()


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance",
                      "DATABASE_URL": database_url(tmp_path, "test.sqlite3")})
    yield app
    close_database(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def csrf_app(tmp_path):
    """An app with CSRF checks on, as in production (TESTING does not turn them off, but this
    fixture makes the intent explicit)."""
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": True, "INSTANCE_PATH": tmp_path / "instance",
                      "DATABASE_URL": database_url(tmp_path, "csrf.sqlite3")})
    yield app
    close_database(app)


RANDOM_RUN = re.compile(r"[A-Za-z0-9_.-]{12,}")  # a game id is 12 characters, a seat key 22


def _random(run: str) -> bool:
    return any(c.isdigit() for c in run) and any(c.isupper() for c in run) and any(c.islower() for c in run)


def mentions(text: str, tile: str) -> bool:
    """Whether a page names a tile's id (``K01``), once the random strings in it are left out:
    CSRF tokens, seat keys and game ids are runs of base64url with digits and both cases, where an
    id turns up by chance (``…eJQBzK013s1m…`` once made a secrets test cry leak; a seat key's
    22 characters, in the page's own links, were not left out until runs of 12 were)."""
    return tile in RANDOM_RUN.sub(lambda m: "" if _random(m.group(0)) else m.group(0), text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, app):
        from waitress.server import create_server
        self.app = app
        self.port = free_port()
        self.server = create_server(app, host="127.0.0.1", port=self.port, threads=8)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.stopping = False

    def _run(self):
        try:
            self.server.run()
        except OSError:
            if not self.stopping:  # closing the sockets under a waiting select() is expected
                raise

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        """Wait for the requests in flight (up to 5 s), then close. Closing a one-socket waitress
        server leaves its worker threads running: one still rendering a page's picture after its
        test ended compiled code while the next test's create_app did, and Python 3.11's parser,
        not safe across threads there, failed that setup ("AST constructor recursion depth
        mismatch", CI of stop 43, test_three_mistakes_show_three)."""
        self.stopping = True
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        self.server.close()
        self.thread.join(timeout=5)


@pytest.fixture
def live_server(tmp_path):
    app = create_app({"INSTANCE_PATH": tmp_path / "live-instance",
                      "DATABASE_URL": database_url(tmp_path, "live.sqlite3")})
    server = LiveServer(app).start()
    yield server
    server.stop()
    close_database(app)


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        pytest.fail("Debian's chromium is not installed; `make test` installs it (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright
    # assertions wait as long as the pages' own actions (10 s): their 5 s default timed out once on a
    # machine at load 5-6 (test_box_browser, a helper's full run), never on a quiet one
    expect.set_options(timeout=10_000)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized browser context (its own cookies), closed after the test."""
    contexts = []
    refused: list[str] = []  # what the pages' security policy blocked, on any page of any context

    def new_context(**kwargs):
        options = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
        options.update(kwargs)
        ctx = browser.new_context(**options)
        ctx.set_default_timeout(10_000)
        ctx.on("console", lambda msg: refused.append(f"{msg.page.url if msg.page else '?'}: {msg.text}")
               if "Content Security Policy" in msg.text else None)
        contexts.append(ctx)
        return ctx

    yield new_context
    for ctx in contexts:
        ctx.close()
    # a blocked script, style or handler is a page that does less than its author meant, silently
    assert not refused, f"the security policy blocked part of a page: {refused[:3]}"


@pytest.fixture
def page(phone):
    return phone().new_page()


@pytest.fixture
def shot(request):
    """``shot(page, "name")`` saves a full-page screenshot as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str):
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        page.evaluate(PICTURES_ON_SCREEN)  # or the screenshot shows tiles as empty squares
        page.screenshot(path=str(path), full_page=True)
        broken = page.evaluate(BROKEN_WORDS)  # every page a test looks at is looked at for this too
        assert not broken, f"{name}: words broken across lines (a column too narrow for them): {broken}"
        return path

    return take


# The pictures on the phone's screen, drawn: a screenshot taken as a page appears showed most of a
# scanned planet's tiles as empty squares while their pictures were still on their way. At most 3 s
# (a picture that never comes is the page's fault, not the screenshot's: other tests look for it).
PICTURES_ON_SCREEN = """() => Promise.race([
  Promise.all(Array.from(document.images)
    .filter(i => !i.complete && i.getBoundingClientRect().top < window.innerHeight)
    .map(i => i.decode().catch(() => null))),
  new Promise(done => setTimeout(done, 3000))])"""


# A word of 4 letters or more laid out on two lines: its range has boxes at two heights. Text meant
# to break anywhere (a link's address) is left out. Seen on the home page, whose four choices once
# stood in four columns 80 px wide ("Sca / n a / pla / net").
BROKEN_WORDS = r"""() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || el.closest('.visually-hidden, [hidden], script, style, .tlink')) continue;
        if (!el.checkVisibility({visibilityProperty: true})) continue;  // e.g. inside a closed <details>
        const st = getComputedStyle(el);
        if (st.visibility === 'hidden' || st.display === 'none' || st.wordBreak === 'break-all') continue;
        for (const m of node.textContent.matchAll(/[\p{Script=Latin}\p{N}\u00ad]{4,}/gu)) {
            if (m[0].includes('\u00ad')) continue;  // a soft hyphen: the place it may break was chosen
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const rects = [...range.getClientRects()].filter(r => r.width > 0);
            if (new Set(rects.map(r => Math.round(r.top))).size < 2) continue;
            // a word wider than most of the screen (a 35-letter name) has to break; a shorter one broken
            // means its column is too narrow
            if (rects.reduce((w, r) => w + r.width, 0) <= 0.6 * innerWidth) out.push(m[0]);
        }
    }
    return out.slice(0, 12);
}"""


@pytest.fixture(scope="session")
def box2_learned(tmp_path_factory):
    """The folder sample_photos/box2's six teaching photos are learned into (``vision.bench.learn_box``),
    once for the suite; tests only read it."""
    from vision.bench import learn_box
    folder = tmp_path_factory.mktemp("box2")
    learn_box(ROOT / "sample_photos" / "box2" / "teach", folder)
    return folder


@pytest.fixture(scope="session")
def dim_learned(tmp_path_factory):
    """Dev set 9327's box (``python -m vision.samples_box DIR --seed 9327 --variant H --count 20
    --empty 2``: pink-skied corner tiles, dim lamps on orange wood), learned from its six teaching
    photos kept in tests/data/box2-f9327H-dim, once for the suite; tests only read it."""
    from vision.bench import learn_box
    folder = tmp_path_factory.mktemp("f9327H")
    learn_box(ROOT / "tests" / "data" / "box2-f9327H-dim" / "teach", folder, quiet=True)
    return folder


def reads_the_planet(path, ex, least: int):
    """The learned box ``ex``'s reading of the photo ``path``: a planet, ``least`` of its cells
    right or more (its truth in ``path``'s JSON), every wrong one doubtful."""
    from vision import reader
    from vision.bench import compare, load_truth, rotations
    reading = reader.read_box(path.read_bytes(), ex)
    assert reading.ok, reading.error
    right, k = compare(reading.cells, load_truth(path.with_suffix(".json")))
    doubtful = rotations(reading.doubtful)[k]
    assert sum(right) >= least
    assert [q for q in range(16) if not right[q] and not doubtful[q]] == []
    return reading
