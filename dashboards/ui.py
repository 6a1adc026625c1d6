"""What every dashboard page shares: settings, reading the store, filters, banners, tables.

Pages read in two steps: :func:`page` opens the store once (through the
snapshot reader of :mod:`recurscope.pipeline.store.locking`, so a writer never makes
a page fail), shows the banners and returns a :class:`PageContext`; the page
then loads what it needs with :meth:`PageContext.load` and renders. Loads
are cached per data version, so a page shown again with the same data costs
nothing, and new spans (after ``serve`` or ``ingest`` refreshed the evidence)
show on the next run.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Final, TypeVar

import duckdb
import polars as pl
import streamlit as st

from recurscope.pipeline.errors import PipelineError, StoreError
from recurscope.pipeline.store.database import resolve_db_path
from recurscope.pipeline.store.locking import (
    ReadView,
    StoreUnavailableError,
    read_connection,
    unreadable_message,
)
from recurscope.pipeline.verdict.report import DEFAULT_DETECTOR_QUALITY
from recurscope.pipeline.verdict.rule import default_preregistration_path

from . import queries
from .queries import Filters, StoreOverview

__all__ = [
    "ALL",
    "ENV_DETECTOR_QUALITY",
    "ENV_INCLUDE_SIMULATED",
    "ENV_PREREG",
    "PageContext",
    "Settings",
    "escape",
    "page",
    "render_filters",
    "settings",
    "table",
]

ENV_PREREG: Final = "RECURSCOPE_PREREG"
ENV_DETECTOR_QUALITY: Final = "RECURSCOPE_DETECTOR_QUALITY"
ENV_INCLUDE_SIMULATED: Final = "RECURSCOPE_INCLUDE_SIMULATED"
"""``1`` turns "Include simulated spans" on at first (``recurscope demo`` does)."""
ALL: Final = "(all)"
"""The filter choice that keeps every value."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the dashboard reads from: the store, the pre-registration, detector quality."""

    db: str
    preregistration: str
    detector_quality: str | None
    include_simulated: bool = False


def settings() -> Settings:
    """The settings ``recurscope dashboard`` passed through the environment."""
    quality = os.environ.get(ENV_DETECTOR_QUALITY)
    if quality is None:
        quality = str(DEFAULT_DETECTOR_QUALITY)
    return Settings(
        db=str(resolve_db_path(None)),
        preregistration=os.environ.get(ENV_PREREG) or str(default_preregistration_path()),
        detector_quality=quality or None,
        include_simulated=os.environ.get(ENV_INCLUDE_SIMULATED, "").lower() in ("1", "true", "yes"),
    )


_MARKDOWN_SPECIAL: Final = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def escape(text: object) -> str:
    """``text`` safe to put inside Markdown: span data never becomes links, images or HTML."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


# ---------------------------------------------------------------------------
# Reading, cached by data version


@st.cache_data(max_entries=256, show_spinner=False, ttl=3600)
def _cached_call(name: str, key: tuple[Any, ...], args: tuple[Any, ...], _view: ReadView) -> Any:
    # `key` (store path, source, data version, refresh) decides the cache
    # entry; `_view` is only how to read it (not hashed).
    del key
    function: Callable[..., Any] = getattr(queries, name)
    return function(_view.connection, *args)


@dataclass(slots=True)
class PageContext:
    """One page run: settings, the store overview, the filters, and how to load data."""

    settings: Settings
    overview: StoreOverview
    filters: Filters
    _view: ReadView | None
    _key: tuple[Any, ...]

    def load(self, function: Callable[..., T], *args: Any) -> T:
        """``function(connection, *args)`` from :mod:`.queries`, cached for this data version."""
        if self._view is None:
            raise RuntimeError("load() is only valid inside the page's reading block")
        result: T = _cached_call(function.__name__, self._key, args, self._view)
        return result


def _data_key(view: ReadView) -> tuple[Any, ...]:
    try:
        rows = view.connection.execute("SELECT max(seq) FROM evidence_refresh_log").fetchall()
        refresh = rows[0][0] if rows else None
    except Exception:  # no evidence yet: the key changes once there is
        refresh = None
    return (str(view.path.resolve()), view.source, view.version, refresh)


@contextmanager
def page(title: str, description: str) -> Iterator[PageContext]:
    """Open the store for one page run: title, banners, and a context to load data with.

    Stops the page (with a sentence saying what to do) when there is no
    store, no evidence, or the store is busy without a snapshot; never lets a
    stack trace reach the reader. Load everything inside the ``with`` block
    and render after it, so the store is held for the queries only.
    """
    config = settings()
    st.title(title)
    st.caption(description)
    try:
        with read_connection(config.db) as view:
            key = _data_key(view)
            overview: StoreOverview = _cached_call("store_overview", key, (), view)
            flt = current_filters(overview)
            _banners(overview, view, flt)
            if overview.state != "ready":
                _empty_store(config, overview)
            if flt.active:
                st.info(
                    f"**Exploratory view** — filtered to {escape(flt.describe())}. Only the "
                    "pre-registered window, unfiltered, gives the headline verdict.",
                    icon=":material/filter_alt:",
                )
            context = PageContext(config, overview, flt, view, key)
            yield context
            context._view = None
    except StoreUnavailableError as error:
        st.warning(str(error), icon=":material/hourglass_top:")
        st.stop()
    except StoreError:
        _no_store(config, f"There is no store at {config.db}.")
    except PipelineError as error:
        st.error(f"Cannot read the store: {escape(error)}", icon=":material/error:")
        st.stop()
    except duckdb.IOException as error:  # the file changed under a query (not a bug of ours)
        message = unreadable_message(error, again="reload the page")
        st.warning(escape(message), icon=":material/sync_problem:")
        st.stop()


def _banners(overview: StoreOverview, view: ReadView, flt: Filters) -> None:
    if overview.origin_note and flt.include_simulated:
        st.warning(f"**Simulated data.** {overview.origin_note}", icon=":material/science:")
    elif overview.non_observed_spans:
        st.info(
            f"**Observed spans only.** The store also holds {overview.non_observed_spans:,} "
            "simulated or replayed spans (`recurscope.origin`), left out of every page. Turn on "
            "*Include simulated spans* in the sidebar to see them, as a demonstration.",
            icon=":material/science:",
        )
    if overview.stale_spans:
        st.caption(
            f":material/update: {overview.stale_spans:,} recurscope spans arrived after the last "
            "evidence refresh; pages show the last refresh (the next ingest or receiver batch "
            "refreshes it)."
        )
    if view.source == "snapshot":
        st.caption(f":material/history: Reading a {escape(view.describe())}.")


def _no_store(config: Settings, message: str) -> None:
    st.info(f"There is no evidence to show yet. {escape(message)}", icon=":material/inbox:")
    st.markdown("To see the dashboard with simulated demonstration data, run `recurscope demo`.")
    st.markdown(
        "To read your own spans, run `recurscope ingest` on an OTLP JSON or protobuf file "
        "(or a Recurgent log), or `recurscope serve` and point an OpenTelemetry exporter at "
        "it, then reload this page:"
    )
    st.code(
        f"recurscope ingest --db {shlex.quote(config.db)} spans.jsonl\n"
        f"recurscope serve --db {shlex.quote(config.db)}",
        language="bash",
    )
    st.stop()


def _empty_store(config: Settings, overview: StoreOverview) -> None:
    if overview.state == "no_spans":
        _no_store(config, "The store holds no spans.")
    st.info(
        f"The store holds {overview.spans:,} spans, but the evidence tables have not been built "
        "yet. They are built by every `recurscope ingest` and by the receiver; ingesting any "
        "file (even one already read) builds them.",
        icon=":material/construction:",
    )
    st.stop()


# ---------------------------------------------------------------------------
# Filters (rendered once by the entrypoint, read by every page)

_FILTER_KEYS: Final = {
    "service": "filter_service",
    "role": "filter_role",
    "prompt_version": "filter_prompt_version",
}
_DATES_KEY: Final = "filter_dates"
_SIMULATED_KEY: Final = "filter_include_simulated"


def render_filters(overview: StoreOverview) -> None:
    """The shared filters, in the sidebar; their values live in ``st.session_state``."""
    if overview.state != "ready":
        return
    with st.sidebar:
        st.subheader("Filters", anchor=False)
        if overview.first_day and overview.last_day:
            st.date_input(
                "Days (UTC)",
                value=(overview.first_day, overview.last_day),
                min_value=overview.first_day,
                max_value=overview.last_day,
                key=_DATES_KEY,
            )
        for field, label, options in (
            ("service", "Service", overview.services),
            ("role", "Role", overview.roles),
            ("prompt_version", "Prompt version", overview.prompt_versions),
        ):
            st.selectbox(label, (ALL, *options), key=_FILTER_KEYS[field])
        if overview.non_observed_spans:
            st.session_state.setdefault(_SIMULATED_KEY, settings().include_simulated)
            st.toggle(
                "Include simulated spans",
                key=_SIMULATED_KEY,
                help="Simulated and replayed spans (recurscope.origin) are left out unless this "
                "is on, like `recurscope report --include-simulated`; with it on, everything is "
                "a demonstration.",
            )
        if st.button("Clear filters", width="stretch"):
            for key in (*_FILTER_KEYS.values(), _DATES_KEY):
                st.session_state.pop(key, None)
            st.rerun()


def current_filters(overview: StoreOverview) -> Filters:
    """The filters as chosen in the sidebar (values no longer in the data are ignored)."""
    state = st.session_state
    chosen: dict[str, str | None] = {}
    for field, options in (
        ("service", overview.services),
        ("role", overview.roles),
        ("prompt_version", overview.prompt_versions),
    ):
        value = state.get(_FILTER_KEYS[field], ALL)
        chosen[field] = value if value != ALL and value in options else None
    start = end = None
    dates = state.get(_DATES_KEY)
    if isinstance(dates, (tuple, list)) and len(dates) == 2:
        first, last = dates
        if isinstance(first, date) and first != overview.first_day:
            start = first
        if isinstance(last, date) and last != overview.last_day:
            end = last
    include = bool(state.get(_SIMULATED_KEY, settings().include_simulated))
    return Filters(
        start=start,
        end=end,
        **chosen,
        include_simulated=include and overview.non_observed_spans > 0,
        observed_only=overview.non_observed_spans > 0 and not include,
    )


# ---------------------------------------------------------------------------
# Rendering helpers


def table(
    frame: pl.DataFrame,
    *,
    name: str,
    caption: str | None = None,
    column_config: dict[str, Any] | None = None,
    height: int | str = "auto",
) -> None:
    """A sortable table with a CSV download of exactly its rows."""
    if frame.is_empty():
        st.caption(caption or "Nothing to show for this selection.")
        return
    config: dict[str, Any] = {}
    for column, dtype in frame.schema.items():
        if dtype.is_integer():
            config[column] = st.column_config.NumberColumn(format="localized")
        elif isinstance(dtype, pl.Datetime):
            config[column] = st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm:ss")
    config.update(column_config or {})
    st.dataframe(
        frame,
        hide_index=True,
        column_config=config,
        height=height,  # type: ignore[arg-type]
    )
    if caption:
        st.caption(caption)
    st.download_button(
        "Download CSV",
        data=csv_bytes(frame),
        file_name=f"recurscope-{name}.csv",
        mime="text/csv",
        key=f"download-{name}",
        icon=":material/download:",
        type="tertiary",
    )


def csv_bytes(frame: pl.DataFrame) -> bytes:
    """The frame as CSV (list columns joined with commas)."""
    flat = frame.with_columns(
        pl.col(c).cast(pl.List(pl.String)).list.join(", ")
        for c, dtype in frame.schema.items()
        if isinstance(dtype, pl.List)
    )
    return flat.write_csv().encode("utf-8")


def pct(value: float | None, digits: int = 1) -> str:
    """A share as a percentage ('—' when undefined)."""
    return "—" if value is None else f"{value:.{digits}%}"


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """numerator / denominator, ``None`` when the denominator is 0 or missing."""
    if not denominator or numerator is None:
        return None
    return float(numerator) / float(denominator)


def file_size(size: int) -> str:
    """Bytes in human units."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:,.0f} {unit}" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{value:,.1f} TB"


def stored_path(path: str | None) -> str:
    """A path for display (absolute when it exists)."""
    if not path:
        return "—"
    candidate = Path(path)
    return str(candidate.resolve()) if candidate.exists() else str(candidate)


def sidebar_overview() -> StoreOverview | None:
    """The store overview for the sidebar filters, or ``None`` when it cannot be read now.

    Pages say why (no store, busy store); the sidebar just leaves the filters out.
    """
    try:
        with read_connection(settings().db) as view:
            key = _data_key(view)
            overview: StoreOverview = _cached_call("store_overview", key, (), view)
            return overview
    except PipelineError:
        return None


def day_x() -> Any:
    """An x axis of UTC calendar days ("Nov 30"), one label per day (bars get a band a day)."""
    import altair as alt

    return alt.X(
        "day:T",
        timeUnit="utcyearmonthdate",
        title="day (UTC)",
        axis=alt.Axis(format="%b %d", labelAngle=0, tickCount={"interval": "day", "step": 1}),
    )


def with_day_label(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with ``day_label`` ("Nov 30") for band axes of days."""
    return frame.with_columns(pl.col("day").dt.strftime("%b %d").alias("day_label"))


def day_band(frame: pl.DataFrame) -> Any:
    """A band x axis of the days in ``frame`` (use with :func:`with_day_label`), in date order."""
    import altair as alt

    order = frame.select(pl.col("day").unique().sort().dt.strftime("%b %d")).to_series().to_list()
    return alt.X("day_label:O", sort=order, title="day (UTC)", axis=alt.Axis(labelAngle=0))
