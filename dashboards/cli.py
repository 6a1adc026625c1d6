"""``recurscope dashboard`` and ``recurscope demo``.

``dashboard`` serves the Streamlit app (``dashboards/app.py``) on 127.0.0.1
with Streamlit's usage statistics off, reading the store through the
snapshot reader, so it runs beside ``serve`` and ``ingest``.

``demo`` prepares a fresh demonstration store — spans produced by the real
instrumentation (:mod:`.demo_data`), every one marked
``recurscope.origin = simulated``, plus the sample conversations replayed
through every trim strategy (marked ``replayed``), ingested and turned into
evidence — then serves the dashboard on it. By default the store is the default store
(``data/recurscope.duckdb``), so ``recurscope report``, ``dashboard`` and
``sessions`` work after it without ``--db``. Running it again rebuilds the
store, so the data never doubles; it refuses to replace a store holding
anything but an earlier demo (observed spans, other sources, a spool not
stored yet). :func:`remove_demo_data` is what ``make clean`` runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Final

from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.store.database import DEFAULT_DB_PATH, Store
from recurscope.pipeline.store.locking import companions, open_for_writing
from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep

__all__ = [
    "DEFAULT_DEMO_DB",
    "DEFAULT_PORT",
    "LEGACY_DEMO_DB",
    "DemoCleanup",
    "DemoStore",
    "dashboard_command",
    "demo_files",
    "prepare_demo",
    "remove_demo_data",
]

APP: Final = Path(__file__).with_name("app.py")
DEFAULT_PORT: Final = 8501
DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_DEMO_DB: Final = DEFAULT_DB_PATH
"""The demo's store: the default store, where report, dashboard and sessions look first."""

LEGACY_DEMO_DB: Final = Path("data") / "demo.duckdb"
"""Where earlier versions put the demo (``make clean`` removes it too)."""
HEALTH_TIMEOUT: Final = 60.0


class DashboardError(RuntimeError):
    """The dashboard or the demo could not start; the message says what to do."""


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def dashboard_command(*, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> list[str]:
    """The ``streamlit run`` command line (the store and settings go in the environment)."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.address",
        host,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        "--server.runOnSave",
        "false",
        "--global.developmentMode",
        "false",
        "--client.toolbarMode",
        "viewer",
        "--client.showErrorDetails",
        "none",
        "--theme.base",
        "light",
    ]


def _environment(
    db: str | os.PathLike[str],
    preregistration: str | None,
    detector_quality: str | None,
    include_simulated: bool = False,
) -> dict[str, str]:
    env = dict(os.environ)
    env["RECURSCOPE_INCLUDE_SIMULATED"] = "1" if include_simulated else ""
    env["RECURSCOPE_DB"] = str(Path(db).resolve())
    if preregistration:
        env["RECURSCOPE_PREREG"] = str(Path(preregistration).resolve())
    if detector_quality is not None:
        env["RECURSCOPE_DETECTOR_QUALITY"] = (
            str(Path(detector_quality).resolve()) if detector_quality else ""
        )
    env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] = "false"
    return env


def _wait_healthy(process: subprocess.Popen[bytes], url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise DashboardError(
                f"the dashboard exited with code {process.returncode} before serving {url}"
            )
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise DashboardError(f"the dashboard did not answer on {url} within {timeout:.0f} s")


def serve_dashboard(
    db: str | os.PathLike[str],
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    open_browser: bool = True,
    preregistration: str | None = None,
    detector_quality: str | None = None,
    include_simulated: bool = False,
) -> int:
    """Serve the dashboard until interrupted; returns the exit code.

    ``include_simulated`` turns the sidebar's "Include simulated spans" on at
    first (the demo does: its spans are all simulated).
    """
    try:
        import streamlit  # noqa: F401
    except ImportError as error:
        raise DashboardError(
            f"the dashboard needs the [dashboards] extra: pip install 'recurscope[dashboards]' "
            f"({error})"
        ) from None
    if not _port_free(host, port):
        raise DashboardError(
            f"port {port} on {host} is in use (another dashboard?): pass --port with a free "
            "port, e.g. --port 8502"
        )
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{port}"
    # SIGTERM (a service manager, `kill`) must stop Streamlit too: turn it into
    # an exit that runs the `finally` below instead of orphaning the child.
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm) if main_thread else None
    process = subprocess.Popen(
        dashboard_command(host=host, port=port),
        env=_environment(db, preregistration, detector_quality, include_simulated),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        try:
            _wait_healthy(process, url, HEALTH_TIMEOUT)
        except DashboardError:
            process.terminate()
            _, err = process.communicate(timeout=10)
            detail = err.decode("utf-8", "replace").strip().splitlines()[-5:]
            raise DashboardError(
                "could not start the dashboard: " + " / ".join(detail or ["no output"])
            ) from None
        print(f"recurscope dashboard: serving {Path(db)} at {url}  (Ctrl-C stops it)", flush=True)
        if host not in ("127.0.0.1", "localhost", "::1"):
            print(
                f"recurscope dashboard: listening on {host}: anyone who can reach this address "
                "can read the evidence",
                file=sys.stderr,
            )
        if open_browser:
            with contextlib.suppress(Exception):
                webbrowser.open(url)
        return _wait(process)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _wait(process: subprocess.Popen[bytes]) -> int:
    try:
        # Drain stderr so the child never blocks on a full pipe.
        assert process.stderr is not None
        for _ in iter(lambda: process.stderr.read(65536), b""):  # type: ignore[union-attr]
            pass
        return process.wait()
    except KeyboardInterrupt:
        return 0


# ---------------------------------------------------------------------------
# The demo


@dataclass(frozen=True, slots=True)
class DemoStore:
    """A prepared demo store: where it is, what it holds, how long preparing took.

    ``sessions`` and ``spans`` are the simulated ones; ``replayed_sessions``
    and ``replayed_spans`` the sample conversations replayed beside them.
    """

    db: Path
    detector_quality: Path | None
    sessions: int
    spans: int
    days: int
    runs: int
    seconds: float
    replayed_sessions: int = 0
    replayed_spans: int = 0


def demo_files(db: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The demo's span folder and detector-quality file, beside its store.

    ``data/demo-spans/`` and ``data/demo.detector-quality.json`` for the
    default store: named for the demo, so ``make clean`` can remove them.
    """
    folder = Path(db).parent
    return folder / "demo-spans", folder / "demo.detector-quality.json"


def _not_replaceable(db: Path) -> str | None:
    """Why the store at ``db`` is not the demo's to replace, or ``None`` if it is.

    It is when it does not exist, or every run in its ingest log read a file
    of the demo's span folder and every span is simulated or replayed (an
    earlier demo, or a store left empty). Anything else — observed spans, other sources,
    the receiver's spool holding spans not stored yet, a file that cannot be
    read — is someone's data.
    """
    comp = companions(db)
    if comp.spool.is_dir() and any(comp.spool.glob("*.seg")):
        return f"the receiver's spool {comp.spool} holds spans not stored yet"
    if not db.exists():
        return None
    spans_dir, _ = demo_files(db)
    try:
        with Store.open(db, read_only=True) as store:
            observed = store.scalar(
                "SELECT count(*) FROM otel_traces WHERE coalesce("
                "ResourceAttributes['recurscope.origin'], 'observed') "
                "NOT IN ('simulated', 'replayed')"
            )
            prefix = [str(spans_dir.resolve()) + os.sep]
            foreign = store.scalar(
                "SELECT count(*) FROM otel_traces WHERE IngestId NOT IN (SELECT IngestId FROM "
                "ingest_log WHERE starts_with(Source, ?))",
                prefix,
            )
            others = store.query(
                "SELECT DISTINCT Source FROM ingest_log WHERE NOT starts_with(Source, ?) "
                "ORDER BY Source LIMIT 3",
                prefix,
            )
    except PipelineError as error:
        return f"it cannot be checked ({error})"
    if observed:
        return f"it holds {observed:,} spans that are not simulated or replayed"
    if foreign:
        return f"it holds {foreign:,} spans the demo did not write"
    if others:
        return "it holds data from other sources (" + ", ".join(str(r[0]) for r in others) + ")"
    return None


def _remove_store(db: Path) -> None:
    reason = _not_replaceable(db)
    if reason is not None:
        raise DashboardError(
            f"the demo will not replace {db}: {reason}. Build it in another file: "
            f"recurscope demo --db {LEGACY_DEMO_DB} (and pass that --db to report, "
            "dashboard and sessions)."
        )
    _delete_store_files(db)


def _delete_store_files(db: Path) -> list[Path]:
    comp = companions(db)
    removed = [path for path in comp.files if path.exists()]
    for path in removed:
        path.unlink(missing_ok=True)
    for directory in comp.directories:
        if directory.exists():
            shutil.rmtree(directory, ignore_errors=True)
            removed.append(directory)
    return removed


@dataclass(frozen=True, slots=True)
class DemoCleanup:
    """What :func:`remove_demo_data` removed, and the stores it kept (with why)."""

    removed: tuple[Path, ...]
    kept: tuple[tuple[Path, str], ...]

    def lines(self) -> list[str]:
        lines = [f"removed {path}" for path in self.removed]
        lines += [f"kept {path}: {why}" for path, why in self.kept]
        return lines or ["no demo data found"]


def remove_demo_data(stores: tuple[Path, ...] = (DEFAULT_DEMO_DB, LEGACY_DEMO_DB)) -> DemoCleanup:
    """Remove what ``recurscope demo`` wrote: its stores (only if they still hold
    nothing but the demo), their snapshots, access folders and spools, the
    span files and the detector-quality file. A store that holds anything else
    is kept and named (``make clean`` runs this)."""
    removed: list[Path] = []
    kept: list[tuple[Path, str]] = []
    for db in dict.fromkeys(stores):
        spans_dir, quality = demo_files(db)
        if db.exists():
            reason = _not_replaceable(db)
            if reason is None:
                removed += _delete_store_files(db)
            else:
                kept.append((db, reason))
        if spans_dir.is_dir():
            shutil.rmtree(spans_dir, ignore_errors=True)
            removed.append(spans_dir)
        if quality.is_file():
            quality.unlink(missing_ok=True)
            removed.append(quality)
    return DemoCleanup(tuple(dict.fromkeys(removed)), tuple(kept))


def _detector_quality(out: Path) -> Path | None:
    """Measure the detector on the labelled corpus at hand (``detector-eval``'s own defaults)."""
    from recurscope.instrumentation.analysis.evaluate import (
        CorpusError,
        default_corpus_dir,
        default_reference_dir,
        evaluate,
    )

    try:
        report = evaluate(default_corpus_dir(), default_reference_dir())
    except CorpusError:
        return None
    out.write_text(report.to_json() + "\n", encoding="utf-8")
    return out


def prepare_demo(db: str | os.PathLike[str], *, seed: int = 7, sessions: int = 160) -> DemoStore:
    """Build a fresh demo store at ``db``: generate, ingest, build the evidence."""
    from recurscope.pipeline.ingest.files import ingest

    from .demo_data import write_demo_replay, write_demo_spans

    started = time.perf_counter()
    # Sessions start the day after the shipped pre-registration was fixed, so
    # the demo shows an intact pre-registration (data collected after it).
    registered = load_preregistration(default_preregistration_path()).registered_at
    first_day = (registered + timedelta(days=1)).date() if registered else None
    path = Path(db)
    _remove_store(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The span files stay beside the store: the Data page names them, and they
    # can be re-ingested or sent elsewhere. They are rewritten on every run.
    spans_dir, quality_file = demo_files(path)
    data = write_demo_spans(spans_dir, seed=seed, sessions=sessions, first_day=first_day)
    # The sample conversations replayed through every strategy, for the Compare page.
    replayed = write_demo_replay(spans_dir, first_day=first_day)
    with open_for_writing(path, kind="recurscope demo", upkeep=EvidenceUpkeep()) as session:
        report = ingest(
            [*data.files, *replayed.files],
            session.store,
            progress=False,
            after_write=session.after_write,
        )
    if report.failed or report.rows_quarantined:
        raise DashboardError(
            f"the demo data did not ingest cleanly ({report.summary_line()}); this is a bug"
        )
    quality = _detector_quality(quality_file)
    return DemoStore(
        db=path,
        detector_quality=quality,
        sessions=data.sessions,
        spans=data.spans,
        days=data.days,
        runs=data.runs,
        seconds=time.perf_counter() - started,
        replayed_sessions=replayed.sessions,
        replayed_spans=replayed.spans,
    )


# ---------------------------------------------------------------------------
# Commands
