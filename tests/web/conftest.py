"""Browser tests: the Debian ``chromium`` driven by Playwright against the app
served by a real HTTP server on 127.0.0.1, behind the event streams' process as
`make run` puts it (``/streams/`` answered there, every other request passed
on), on the test's database, with a real Celery worker keeping the
projections (standings, replays) up to date.

A failed browser test leaves a screenshot under ``var/browser-failures/``.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import make_server

from tests.conftest import ROOT
from tests.streams import StreamServer
from tests.workers.conftest import broker, broker_app, broker_client, worker  # noqa: F401 - fixtures here too

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FAILURES = ROOT / "var" / "browser-failures"
PHONE = {"width": 390, "height": 844}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: apt-get install chromium", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # launch() gives every run a fresh, temporary user-data-dir.
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def server(broker_app, pool, database_url):  # noqa: F811 - the fixture imported above
    """The app on a real HTTP server in a thread, behind the streams' process as
    `make run` puts it: the address pages are read at (add ``projections`` for a worker)."""
    http = make_server("127.0.0.1", 0, broker_app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    front = StreamServer(pool, database_url, upstream=f"http://127.0.0.1:{http.server_port}")
    yield front.url
    front.stop()
    http.shutdown()
    thread.join(10)


@pytest.fixture
def projections(worker):  # noqa: F811 - the fixture imported above
    """A real Celery worker keeping the standings, replays and statistics."""
    return worker.start()


@pytest.fixture
def page(browser, server, request):
    """A fresh browser context (no cookies) on a phone-sized screen. Every
    request it makes must stay on this machine; a failed test saves a screenshot."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    elsewhere: list[str] = []
    errors: list[str] = []
    tab.on("request", lambda r: None if _local(r.url) else elsewhere.append(r.url))
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    failed = getattr(request.node, "report_call", None)
    if failed is not None and failed.failed:
        FAILURES.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", request.node.nodeid)
        tab.screenshot(path=str(FAILURES / f"{name}.png"), full_page=True)
    context.close()
    assert not elsewhere, f"requests left the machine: {elsewhere}"
    assert not [e for e in errors if "status of 4" not in e and "status of 5" not in e], errors


def _local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "about", "blob") or parts.hostname == "127.0.0.1"
