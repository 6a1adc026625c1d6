"""The dashboard as a researcher sees it: served by the real commands, read in headless Chromium.

One simulated demo store is built with ``recurscope demo --prepare-only`` and
served with ``recurscope dashboard``; every page loads in Debian's
``chromium`` (driven by Playwright's Python API, which never downloads a
browser here) without an exception block, with its title and the simulated
banner. A screenshot of every page is kept in
``test-artifacts/screenshots/<page>.png`` (``$RECURSCOPE_ARTIFACTS/screenshots``
when set) for a person to look at. The server binds 127.0.0.1 only with usage
statistics off; ``recurscope demo`` alone reaches a served dashboard and
rebuilds rather than doubles its store; a missing store shows what to do and
is not created.

Every command runs as a subprocess in a temporary directory, in its own
process group, and is stopped (Ctrl-C, then SIGKILL) at the end.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    sync_playwright = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = shutil.which("chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="needs Debian's chromium on PATH (apt-get install chromium; .ci/run installs it)",
    ),
    pytest.mark.skipif(
        sync_playwright is None,
        reason="needs the playwright package (pip install -e '.[dev]'); never `playwright install`",
    ),
]

REPO = Path(__file__).resolve().parents[1]
RECURSCOPE = [sys.executable, "-m", "recurscope.cli"]
URL_LINE = re.compile(r"serving .* at (http://\S+)")

PAGES = [
    ("verdict", "", "Verdict"),
    ("compare", "compare", "Compare"),
    ("history_access", "history_access", "History access"),
    ("history_needs", "history_needs", "History needs"),
    ("boilerplate", "boilerplate", "Boilerplate"),
    ("delegation", "delegation", "Delegation"),
    ("trims", "trims", "Trims"),
    ("goals", "goals", "Goal boundaries"),
    ("replay", "replay", "Replay"),
    ("sessions", "sessions", "Sessions"),
    ("data", "data", "Data"),
]
"""(name of the screenshot, URL path, title) for every page."""

MAIN = '[data-testid="stMain"]'
EXCEPTION = '[data-testid="stException"]'
SETTLED = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app !== null
        && app.getAttribute('data-test-script-state') === 'notRunning'
        && !document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]');
}"""
"""True when the script has finished and no element is still a loading skeleton."""
OUTCOME = re.compile(r"\b(not justified|justified|insufficient evidence)\b")

PREPARE_TIMEOUT = 180.0
"""Seconds for ``demo`` to build its store (about 10 here)."""
SERVE_TIMEOUT = 90.0
"""Seconds for a command to print its URL once the store is ready."""
PAGE_TIMEOUT_MS = 60_000
"""A page's first run on a fresh server imports the whole stack (over 10 s here)."""
QUIET_SECONDS = 1.0
"""How long a page must stay settled before it counts as drawn (charts render after)."""


def _artifacts() -> Path:
    return Path(os.environ.get("RECURSCOPE_ARTIFACTS") or REPO / "test-artifacts")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# ---------------------------------------------------------------------------
# Processes


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@dataclass
class Served:
    """A running ``recurscope`` command that printed the URL it serves."""

    process: subprocess.Popen[bytes]
    url: str
    port: int
    log: Path

    def streamlit_pid(self) -> int:
        """The Streamlit server the command started."""
        children = _children(self.process.pid)
        assert len(children) == 1, f"expected one Streamlit child, found {children}"
        return children[0]


def _start(args: list[str], *, cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [*RECURSCOPE, *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Ctrl-C the command's process group (it stops Streamlit itself); kill what is left."""
    started = _children(process.pid) if process.poll() is None else []
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    deadline = time.monotonic() + 10
    for pid in started:
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if _alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _wait_for_url(process: subprocess.Popen[bytes], log: Path, timeout: float) -> Served:
    """Wait until the command prints the URL it serves (stop it and fail if it never does)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = URL_LINE.search(log.read_text(errors="replace"))
        if match:
            url = match[1].rstrip("/")
            return Served(process, url, int(url.rsplit(":", 1)[1]), log)
        if process.poll() is not None:
            break
        time.sleep(0.2)
    _stop(process)
    pytest.fail(f"{process.args!r} served nothing:\n{log.read_text(errors='replace')}")


def _serve(args: list[str], *, cwd: Path, log: Path, timeout: float) -> Served:
    """Run ``recurscope ARGS`` until it prints the URL it serves."""
    return _wait_for_url(_start(args, cwd=cwd, log=log), log, timeout)


def _health(url: str) -> int:
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
        status: int = response.status
        return status


# ---------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One simulated demo store, built by ``recurscope demo --prepare-only``."""
    where = tmp_path_factory.mktemp("demo-store")
    db = where / "demo.duckdb"
    result = subprocess.run(
        [*RECURSCOPE, "demo", "--prepare-only", "--db", str(db)],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=PREPARE_TIMEOUT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return db


@pytest.fixture(scope="module")
def dashboard(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``recurscope dashboard`` serving the demo store (with the demo's detector quality)."""
    cwd = tmp_path_factory.mktemp("dashboard-cwd")
    args = [
        "dashboard",
        "--db",
        str(demo_store),
        "--no-browser",
        "--include-simulated",
        "--port",
        str(_free_port()),
    ]
    quality = demo_store.with_name("demo.detector-quality.json")
    if quality.exists():
        args += ["--detector-quality", str(quality)]
    served = _serve(args, cwd=cwd, log=cwd / "dashboard.log", timeout=SERVE_TIMEOUT)
    try:
        yield served
    finally:
        _stop(served.process)


@pytest.fixture(scope="module", autouse=True)
def demo_command(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``recurscope demo --no-browser`` (process and log), started as the module starts.

    Started early so that its build (about 10 s) overlaps the page tests;
    :func:`test_demo_alone_reaches_a_served_dashboard` waits for its URL.
    """
    where = tmp_path_factory.mktemp("demo-command")
    log = where / "demo.log"
    args = ["demo", "--no-browser", "--port", str(_free_port()), "--db", str(where / "d.duckdb")]
    process = _start(args, cwd=where, log=log)
    try:
        yield process, log
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium, one for the whole module."""
    assert sync_playwright is not None and CHROMIUM is not None
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    """One tab, tall enough that a screenshot shows the page (Streamlit scrolls inside it)."""
    tab = browser.new_page(viewport={"width": 1400, "height": 2400})
    try:
        yield tab
    finally:
        tab.close()


def _open(page: Page, url: str) -> str:
    """Load ``url``, wait until it is drawn, and return the main area's text.

    The status widget alone is not enough: it may not have appeared yet when
    the title shows, and tables, charts and code stay skeletons for a second
    or more after the script ends (their code loads lazily). So the page must
    stay settled (script not running, no skeleton) for :data:`QUIET_SECONDS`.
    """
    page.goto(url, wait_until="domcontentloaded")
    page.locator(f"{MAIN} h1").first.wait_for(timeout=PAGE_TIMEOUT_MS)
    deadline = time.monotonic() + PAGE_TIMEOUT_MS / 1000
    quiet_since: float | None = None
    while True:
        now = time.monotonic()
        if not page.evaluate(SETTLED):
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= QUIET_SECONDS:
            break
        if now > deadline:
            pytest.fail(f"{url} was still running or loading after {PAGE_TIMEOUT_MS / 1000:.0f} s")
        page.wait_for_timeout(100)
    text: str = page.locator(MAIN).inner_text()
    return text


def _screenshot(page: Page, name: str) -> None:
    """Keep what the page looks like for a person to check (the folder is git-ignored)."""
    shots = _artifacts() / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"{name}.png"))


def _title(page: Page) -> str:
    title: str = page.locator(f"{MAIN} h1").first.inner_text()
    return title.strip()


# ---------------------------------------------------------------------------
# Every page


@pytest.mark.parametrize(("name", "path", "title"), PAGES, ids=[p[0] for p in PAGES])
def test_every_page_renders_with_its_title_and_the_simulated_banner(
    dashboard: Served, page: Page, name: str, path: str, title: str
) -> None:
    """The page loads in Chromium with its title, the simulated banner and no exception block."""
    text = _open(page, f"{dashboard.url}/{path}")
    _screenshot(page, name)

    assert page.locator(EXCEPTION).count() == 0, text
    assert _title(page) == title
    assert "Simulated data." in text
    if name == "verdict":
        assert "ContextView" in text
        assert OUTCOME.search(text), text


# ---------------------------------------------------------------------------
# How it is served


def _listening(port: int) -> set[str]:
    """The local addresses with a listening TCP socket on ``port`` (from /proc/net)."""
    found = set()
    for table, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6)):
        path = Path("/proc/net") / table
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state != "0A" or int(hex_port, 16) != port:
                continue
            raw = bytes.fromhex(address)
            # The kernel prints each 32-bit word in host (little-endian) order.
            packed = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
            found.add(socket.inet_ntop(family, packed))
    return found


def _other_addresses() -> set[str]:
    """This machine's non-loopback IPv4 addresses (possibly none)."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # UDP connect sends nothing: it picks the route's address
        found.add(probe.getsockname()[0])
    return {a for a in found if not ipaddress.ip_address(a).is_loopback and a != "0.0.0.0"}


def test_the_server_listens_on_loopback_only(dashboard: Served) -> None:
    """The dashboard's port is bound on 127.0.0.1 alone; the machine's other addresses refuse."""
    if not Path("/proc/net/tcp").exists():
        pytest.skip("reads listening sockets from /proc/net (Linux)")
    assert _listening(dashboard.port) == {"127.0.0.1"}
    for address in _other_addresses():
        with socket.socket() as client:
            client.settimeout(3)
            assert client.connect_ex((address, dashboard.port)) != 0, address


def test_usage_statistics_are_off(dashboard: Served) -> None:
    """Streamlit runs with --browser.gatherUsageStats false (and the same in its environment)."""
    pid = dashboard.streamlit_pid()
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    assert "streamlit" in argv
    assert argv[argv.index("--browser.gatherUsageStats") + 1] == "false"
    assert argv[argv.index("--server.address") + 1] == "127.0.0.1"
    environ = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")
    assert "STREAMLIT_BROWSER_GATHER_USAGE_STATS=false" in environ


# ---------------------------------------------------------------------------
# recurscope demo


def test_demo_alone_reaches_a_served_dashboard(
    demo_command: tuple[subprocess.Popen[bytes], Path], page: Page
) -> None:
    """`recurscope demo --no-browser` builds its store and serves a healthy dashboard on it."""
    process, log = demo_command
    served = _wait_for_url(process, log, PREPARE_TIMEOUT + SERVE_TIMEOUT)
    try:
        assert _health(served.url) == 200
        text = _open(page, served.url)
        assert page.locator(EXCEPTION).count() == 0, text
        assert _title(page) == "Verdict"
    finally:
        _stop(process)
    assert process.returncode is not None


def _span_count(db: Path) -> int:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT count(*) FROM otel_traces").fetchone()
    finally:
        con.close()
    assert row is not None
    return int(row[0])


def test_preparing_the_demo_twice_rebuilds_instead_of_doubling(tmp_path: Path) -> None:
    """A second `demo --prepare-only` on the same path leaves as many spans as the first.

    A small demo (20 sessions) keeps this quick; the rebuild is the same at any size.
    """
    db = tmp_path / "twice.duckdb"
    counts = []
    for _ in range(2):
        result = subprocess.run(
            [*RECURSCOPE, "demo", "--prepare-only", "--sessions", "20", "--db", str(db)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=PREPARE_TIMEOUT,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        counts.append(_span_count(db))
    assert counts[0] > 0
    assert counts[1] == counts[0]


# ---------------------------------------------------------------------------
# No store yet


def test_a_missing_store_says_what_to_do_and_is_not_created(tmp_path: Path, page: Page) -> None:
    """Served on a path with no store, the page names `recurscope demo` and `ingest`; no file appears."""
    store_dir = tmp_path / "store"
    store_dir.mkdir()
    missing = store_dir / "missing.duckdb"
    served = _serve(
        ["dashboard", "--db", str(missing), "--no-browser", "--port", str(_free_port())],
        cwd=tmp_path,
        log=tmp_path / "dashboard.log",
        timeout=SERVE_TIMEOUT,
    )
    try:
        text = _open(page, served.url)
        _screenshot(page, "no-store")
        assert page.locator(EXCEPTION).count() == 0, text
        assert "recurscope demo" in text
        assert "recurscope ingest" in text
        assert not missing.exists()
    finally:
        _stop(served.process)
    assert not missing.exists()
    assert list(store_dir.iterdir()) == [], "the dashboard wrote beside the missing store"


def test_sigterm_stops_the_dashboard_and_its_streamlit_child(
    demo_store: Path, tmp_path: Path
) -> None:
    """`kill PID` of `recurscope dashboard` (not its group) stops Streamlit and frees the port."""
    port = _free_port()
    served = _serve(
        ["dashboard", "--db", str(demo_store), "--no-browser", "--port", str(port)],
        cwd=tmp_path,
        log=tmp_path / "sigterm.log",
        timeout=PREPARE_TIMEOUT,
    )
    child = served.streamlit_pid()
    try:
        served.process.send_signal(signal.SIGTERM)
        served.process.wait(timeout=30)
        deadline = time.monotonic() + 15
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(child)
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0
    finally:
        _stop(served.process)
        if _alive(child):
            os.kill(child, signal.SIGKILL)
