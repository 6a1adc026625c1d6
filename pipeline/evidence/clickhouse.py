"""The evidence on ClickHouse: the same model SQL, run where the Collector's spans are.

Route (docs/decisions.md, "One SQL, two engines"): the models in ``sql/`` run
*unchanged*; ``sql/macros/_dialect_clickhouse.sql`` defines the dialect's
names as ClickHouse SQL functions, and this module is the only other
ClickHouse-specific code: the connection (:func:`connect`: a server through
``clickhouse-connect``, or ClickHouse in-process through ``chdb``), the
settings that make ClickHouse answer like DuckDB, and the refresh.

Settings sent with every statement (:data:`SETTINGS`), each a silent
difference otherwise:

- ``join_use_nulls=1``: an outer join's missing side is NULL, not the type's
  default ('' or 0), so ``coalesce`` and ``is null`` mean what they say;
- ``cast_keep_nullable=1``: ``cast(x as bigint)`` of a NULL stays NULL
  instead of failing;
- ``session_timezone='UTC'``: ``DateTime64(9)`` without a zone is read and
  cut into days in UTC, whatever the server's zone.

Refresh (:func:`refresh`) happens inside ClickHouse: models are built as
tables of a staging database (``<database>_next``) whose ``otel_traces`` is a
view of the raw table, then moved in. Span-model tables are MergeTree tables
partitioned by day; an incremental refresh recomputes the sessions with spans
on the days new spans touched and swaps those day partitions in with
``ALTER TABLE ... REPLACE PARTITION`` (no DELETE mutations). Session models
are small and rebuilt whole, then swapped with ``EXCHANGE TABLES``.
Near-duplicate clustering of *new code shapes* is the one step run in the
client: the new shapes (one row per fingerprint, never spans) and the
registry go to an in-process DuckDB, ``clusters.py`` assigns them, and the
new registry rows come back.

Readers (:func:`evidence_replica`) copy the evidence tables, never raw spans,
into an in-memory DuckDB, where the verdict, report and dashboard code runs
unchanged.
"""

from __future__ import annotations

import logging
import re
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

import duckdb
import pyarrow as pa

from ..errors import PipelineError
from . import models as _models
from .clusters import DEFAULT_CLUSTERS, REGISTRY, ClusterSettings, assign_shape_clusters

__all__ = [
    "DEFAULT_DATABASE",
    "ENGINE_LOCAL_COLUMNS",
    "EVIDENCE_TABLES",
    "SETTINGS",
    "ClickHouseClient",
    "ClickHouseRefresh",
    "connect",
    "create_otel_traces",
    "evidence_differences",
    "evidence_replica",
    "install_dialect",
    "load_spans",
    "models_version",
    "normalized_rows",
    "open_evidence",
    "raw_table",
    "refresh",
    "run_audits",
    "session_spine",
    "table_differences",
    "write_evidence_store",
]

SETTINGS: Final[Mapping[str, object]] = {
    "join_use_nulls": 1,
    "cast_keep_nullable": 1,
    "session_timezone": "UTC",
    "prefer_column_name_to_alias": 1,
}
"""Sent with every statement; the module docstring says what each prevents."""

DEFAULT_DATABASE: Final = "recurscope"
"""Where the evidence tables go; raw spans stay in the exporter's database."""

# Partition key of each span model: a UTC day every row's session has spans on.
_PARTITION: Final = {name: "day" for name in _models.SPAN_MODELS}
_PARTITION["session_fingerprints"] = "toDate(first_seen)"

_SPAN_FILTER: Final = f"SpanName IN ({_models.SPAN_NAME_LIST})"
_SESSION_KEY: Final = "ifNull(attr_str(SpanAttributes, 'gen_ai.conversation.id'), '\\0')"
"""The session as a key; spans without a session form one group (NULL on DuckDB)."""


class ClickHouseClient(Protocol):
    """The few calls the evidence needs, over chdb or a server."""

    dsn: str

    def command(self, sql: str, params: Mapping[str, object] | None = None) -> None: ...

    def arrow(self, sql: str, params: Mapping[str, object] | None = None) -> pa.Table: ...

    def insert_arrow(self, table: str, data: pa.Table) -> None: ...

    def use(self, database: str) -> None: ...

    def close(self) -> None: ...


class _ChdbClient:
    """ClickHouse in this process (``chdb``): a path keeps the data, none is in memory."""

    def __init__(self, dsn: str, path: str | None) -> None:
        try:
            from chdb import session as chdb_session
        except ImportError:
            raise PipelineError(
                "--engine clickhouse with a chdb:// DSN needs chdb: "
                "pip install 'recurscope[clickhouse]'."
            ) from None
        self.dsn = dsn
        factory: Any = chdb_session.Session  # chdb ships no annotations
        try:
            self._session: Any = factory(path) if path else factory()
        except Exception as exc:
            raise PipelineError(
                f"Cannot open chdb store {dsn}: {exc}. chdb runs one store per process: "
                "close the other connection first, or use a ClickHouse server "
                "(clickhouse://HOST:8123/DATABASE)."
            ) from None
        self._scratch = tempfile.TemporaryDirectory(prefix="recurscope-chdb-")
        # A chdb session keeps SET values for its later statements.
        for key, value in SETTINGS.items():
            literal = f"'{value}'" if isinstance(value, str) else str(value)
            self._session.query(f"SET {key} = {literal}", "CSV")

    def command(self, sql: str, params: Mapping[str, object] | None = None) -> None:
        self._session.query(sql, "CSV", params=dict(params or {}))

    def arrow(self, sql: str, params: Mapping[str, object] | None = None) -> pa.Table:
        result = self._session.query(sql, "ArrowTable", params=dict(params or {}))
        return result if isinstance(result, pa.Table) else pa.table({})

    def insert_arrow(self, table: str, data: pa.Table) -> None:
        import pyarrow.parquet as pq

        path = Path(self._scratch.name) / "insert.parquet"
        pq.write_table(data, path)
        columns = ", ".join(f"`{c}`" for c in data.column_names)
        self.command(f"INSERT INTO {table} ({columns}) SELECT * FROM file('{path}', Parquet)")
        path.unlink()

    def use(self, database: str) -> None:
        self._session.query(f"USE {database}", "CSV")

    def close(self) -> None:
        self._session.close()
        self._scratch.cleanup()


class _ServerClient:
    """A ClickHouse server over HTTP(S) (``clickhouse-connect``)."""

    def __init__(self, dsn: str) -> None:
        try:
            import clickhouse_connect
        except ImportError:
            raise PipelineError(
                "--engine clickhouse needs clickhouse-connect: "
                "pip install 'recurscope[clickhouse]'."
            ) from None
        self.dsn = dsn
        # The driver logs a failed first request itself; the error below says it better.
        driver_log = logging.getLogger("clickhouse_connect")
        level = driver_log.level
        driver_log.setLevel(logging.CRITICAL)
        try:
            self._client = clickhouse_connect.get_client(
                dsn=dsn, settings=dict(SETTINGS), connect_timeout=10
            )
        except Exception as exc:
            raise PipelineError(
                f"Cannot reach ClickHouse at {_redacted(dsn)}: {exc}. Check the host, port "
                "(8123 for HTTP, 8443 for HTTPS), user and password in --dsn, and that the "
                "server is up (curl http://HOST:8123/ping answers 'Ok.')."
            ) from None
        finally:
            driver_log.setLevel(level)

    def command(self, sql: str, params: Mapping[str, object] | None = None) -> None:
        self._client.command(sql, parameters=dict(params) if params else None)

    def arrow(self, sql: str, params: Mapping[str, object] | None = None) -> pa.Table:
        table = self._client.query_arrow(sql, parameters=dict(params) if params else None)
        return table if isinstance(table, pa.Table) else pa.table({})

    def insert_arrow(self, table: str, data: pa.Table) -> None:
        self._client.insert_arrow(table, data)

    def use(self, database: str) -> None:
        self._client.database = database

    def close(self) -> None:
        self._client.close()


def _redacted(dsn: str) -> str:
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", dsn)


def connect(dsn: str) -> ClickHouseClient:
    """A client for ``dsn``.

    ``chdb://`` (in memory) or ``chdb://PATH`` / ``chdb:///ABS/PATH``:
    ClickHouse in this process, data under PATH. ``clickhouse://`` /
    ``http://`` / ``https://user:password@host:port/database``: a server's
    HTTP interface. Anything else is an error saying which forms exist.
    """
    parts = urlsplit(dsn)
    scheme = parts.scheme.lower()
    if scheme == "chdb":
        path = (parts.netloc + parts.path) or None
        return _ChdbClient(dsn, path)
    if scheme in ("clickhouse", "clickhouses", "http", "https"):
        if not parts.hostname:
            raise PipelineError(f"--dsn {_redacted(dsn)} names no host: use {scheme}://HOST:PORT")
        return _ServerClient(dsn)
    raise PipelineError(
        f"--dsn {_redacted(dsn)!s} is not a ClickHouse DSN: use "
        "clickhouse://USER:PASSWORD@HOST:8123/DATABASE (a server, over HTTP), "
        "https://... (TLS), or chdb://PATH (ClickHouse in-process; chdb:// alone is in memory)."
    )


def install_dialect(client: ClickHouseClient) -> None:
    """Define the dialect's functions (``_dialect_clickhouse.sql``), skipping built-in names."""
    builtin = {
        str(name)
        for name in client.arrow("SELECT name FROM system.functions WHERE origin = 'System'")
        .column("name")
        .to_pylist()
    }
    for statement in _statements(_models.sql_text("_dialect_clickhouse")):
        match = re.search(r"FUNCTION\s+(\w+)", statement)
        if match and match.group(1) in builtin:
            continue
        client.command(statement)


def _statements(text: str) -> list[str]:
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    return [part.strip() for part in re.split(r";\s*(?:\n|$)", body) if part.strip()]


def create_otel_traces(client: ClickHouseClient, table: str = "default.otel_traces") -> None:
    """Create the exporter's ``otel_traces`` (for tests, benchmarks and empty chdb stores)."""
    client.command(_models.sql_text("_otel_traces_clickhouse").replace("{table}", table))


def load_spans(
    client: ClickHouseClient,
    con: duckdb.DuckDBPyConnection,
    table: str = "default.otel_traces",
    *,
    where: str = "TRUE",
) -> int:
    """Copy a DuckDB ``otel_traces`` (contract columns) into the exporter's table; return rows.

    Lists of structs become the exporter's Nested columns (parallel arrays);
    ``where`` picks the rows (a DuckDB condition), e.g. only spans added since.
    """
    data = con.sql(
        """
        SELECT "Timestamp", TraceId, SpanId, ParentSpanId, TraceState, SpanName, SpanKind,
            ServiceName, ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes,
            CAST(Duration AS UBIGINT) AS Duration, StatusCode, StatusMessage,
            coalesce(list_transform(Events, lambda e: e."Timestamp"), []) AS "Events.Timestamp",
            coalesce(list_transform(Events, lambda e: e."Name"), []) AS "Events.Name",
            coalesce(list_transform(Events, lambda e: e."Attributes"), []) AS "Events.Attributes",
            coalesce(list_transform(Links, lambda e: e.TraceId), []) AS "Links.TraceId",
            coalesce(list_transform(Links, lambda e: e.SpanId), []) AS "Links.SpanId",
            coalesce(list_transform(Links, lambda e: e.TraceState), []) AS "Links.TraceState",
            coalesce(list_transform(Links, lambda e: e."Attributes"), []) AS "Links.Attributes"
        FROM otel_traces
        WHERE """
        + where
    ).to_arrow_table()
    if data.num_rows:
        client.insert_arrow(table, data)
    return int(data.num_rows)


@dataclass(frozen=True, slots=True)
class ClickHouseRefresh:
    """What one :func:`refresh` did (the ClickHouse twin of ``models.RefreshResult``)."""

    mode: str  # full or incremental
    days_replaced: int  # day partitions swapped into each span table
    sessions: int  # sessions in the evidence after the refresh
    spans_read: int
    seconds: float
    watermark: datetime | None
    reason: str = ""
    late_spans: int = 0  # spans only the ledger check caught (at least 1 when it fired)


def _scalar(client: ClickHouseClient, sql: str) -> Any:
    table = client.arrow(sql)
    return table.column(0)[0].as_py() if table.num_rows else None


def _tables(client: ClickHouseClient, database: str) -> set[str]:
    rows = client.arrow(
        "SELECT name FROM system.tables WHERE database = {db:String}", {"db": database}
    )
    return {str(name) for name in rows.column("name").to_pylist()} if rows.num_rows else set()


def _model_sql(name: str) -> str:
    # The one rewrite: DuckDB's $name parameters are ClickHouse's {name:Type}.
    return re.sub(r"\$(\w+)", r"{\1:Float64}", _models.sql_text(name))


def _create_model(
    client: ClickHouseClient, table: str, name: str, params: Mapping[str, object] | None = None
) -> None:
    partition = _PARTITION.get(name)
    layout = (
        f"ENGINE = MergeTree PARTITION BY {partition} ORDER BY tuple() "
        "SETTINGS allow_nullable_key = 1"
        if partition
        else "ENGINE = MergeTree ORDER BY tuple()"
    )
    client.command(f"CREATE TABLE {table} {layout} AS {_model_sql(name)}", params)


def refresh(
    client: ClickHouseClient,
    *,
    raw: str = "default.otel_traces",
    database: str = DEFAULT_DATABASE,
    full: bool = False,
    min_other_sessions: int = _models.DEFAULT_MIN_OTHER_SESSIONS,
    clusters: ClusterSettings = DEFAULT_CLUSTERS,
    lateness_seconds: int = int(_models.DEFAULT_LATENESS.total_seconds()),
) -> ClickHouseRefresh:
    """Bring ``database``'s evidence tables up to date with ``raw``, inside ClickHouse.

    The first refresh, ``full=True``, changed SQL or a new S rebuild
    everything; otherwise the day partitions holding sessions with spans
    newer than the last watermark (minus ``lateness_seconds``) are rebuilt
    and replaced; then the span ledger check catches spans later than the
    margin, or gone, as on DuckDB.
    """
    started = time.perf_counter()
    install_dialect(client)
    staging = f"{database}_next"
    client.command(f"CREATE DATABASE IF NOT EXISTS {database} ENGINE = Atomic")
    existing = _tables(client, database)
    _ensure_log(client, database)
    last = _last_refresh(client, database)
    reason = ""
    if last is None:
        reason = "first refresh"
    elif last[1] != models_version():
        reason = "evidence SQL changed since the last refresh"
    elif not existing.issuperset((*_models.SPAN_MODELS, *_models.SESSION_MODELS)):
        reason = "evidence tables missing"
    elif full:
        reason = "full refresh requested"
    elif last[2] != min_other_sessions:
        reason = "S changed"
    client.command(f"DROP DATABASE IF EXISTS {staging} SYNC")
    client.command(f"CREATE DATABASE {staging} ENGINE = Atomic")
    try:
        client.use(staging)
        if reason:
            client.command(f"CREATE VIEW otel_traces AS SELECT * FROM {raw} WHERE {_SPAN_FILTER}")
            for name in _models.SPAN_MODELS:
                _create_model(client, name, name)
            spans_read = int(_scalar(client, "SELECT count() FROM otel_traces") or 0)
            for name in _models.SPAN_MODELS:
                _swap_in(client, staging, database, name, name in existing)
            days, mode, late_spans = -1, "full", 0
        else:
            assert last is not None
            days, spans_read, late_spans = _replace_days(
                client, raw, staging, database, last[0], lateness_seconds
            )
            mode = "incremental"
        _build_session_models(client, staging, database, min_other_sessions, clusters)
        watermark = _scalar(client, f"SELECT max(Timestamp) FROM {raw} WHERE {_SPAN_FILTER}")
        sessions = int(_scalar(client, f"SELECT count() FROM {database}.sessions") or 0)
        seconds = time.perf_counter() - started
        client.command(
            f"INSERT INTO {database}.evidence_refresh_log "
            "SELECT now64(6), {mode:String}, {reason:String}, {days:Int64}, {spans:Int64}, "
            f"(SELECT max(Timestamp) FROM {raw} WHERE {_SPAN_FILTER}), "
            "{seconds:Float64}, {version:String}, {s:Int64}",
            {
                "mode": mode,
                "reason": reason,
                "days": days,
                "spans": spans_read,
                "seconds": seconds,
                "version": models_version(),
                "s": min_other_sessions,
            },
        )
    finally:
        client.use("default")
        client.command(f"DROP DATABASE IF EXISTS {staging} SYNC")
    return ClickHouseRefresh(
        mode=mode,
        days_replaced=days,
        sessions=sessions,
        spans_read=spans_read,
        seconds=time.perf_counter() - started,
        watermark=watermark,
        reason=reason,
        late_spans=late_spans,
    )


def models_version() -> str:
    """``models.models_version()`` with the ClickHouse dialect folded in: either changing rebuilds."""
    import hashlib

    digest = hashlib.sha256(_models.models_version().encode())
    digest.update(_models.sql_text("_dialect_clickhouse").encode())
    return digest.hexdigest()[:16]


def _param_time(value: datetime) -> str:
    """A timestamp as ClickHouse parses a DateTime64(9) parameter (UTC, no zone suffix)."""
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat(sep=" ")


def _ensure_log(client: ClickHouseClient, database: str) -> None:
    client.command(
        f"""
        CREATE TABLE IF NOT EXISTS {database}.evidence_refresh_log (
            refreshed_at DateTime64(6),
            mode String,
            reason String,
            days_replaced Int64,          -- -1: every partition (full refresh)
            spans_read Int64,
            watermark Nullable(DateTime64(9)),
            seconds Float64,
            models_version String,
            min_other_sessions Int64
        ) ENGINE = MergeTree ORDER BY refreshed_at
        """
    )


def _last_refresh(
    client: ClickHouseClient, database: str
) -> tuple[datetime | None, str, int] | None:
    rows = client.arrow(
        f"SELECT watermark, models_version, min_other_sessions FROM {database}.evidence_refresh_log "
        "ORDER BY refreshed_at DESC LIMIT 1"
    ).to_pylist()
    if not rows:
        return None
    row = rows[0]
    return row["watermark"], str(row["models_version"]), int(row["min_other_sessions"])


def _swap_in(
    client: ClickHouseClient, staging: str, database: str, name: str, exists: bool
) -> None:
    if exists:
        client.command(f"EXCHANGE TABLES {staging}.{name} AND {database}.{name}")
        client.command(f"DROP TABLE {staging}.{name} SYNC")
    else:
        client.command(f"RENAME TABLE {staging}.{name} TO {database}.{name}")


def _replace_days(
    client: ClickHouseClient,
    raw: str,
    staging: str,
    database: str,
    watermark: datetime | None,
    lateness_seconds: int,
) -> tuple[int, int, int]:
    """Bring the span tables up to date by day partition; return (days, spans read, late spans).

    Fast path: the sessions with a span at or after the watermark minus the
    lateness margin. Then the span ledger check, as on DuckDB: when the
    count or checksum of all recurscope spans differs from what
    ``session_activity`` now accounts for (a span later than the margin, a
    deleted day), the sessions whose own ledgers differ get a second pass.
    """
    since = "toDateTime64('1970-01-01', 9)" if watermark is None else "{since:DateTime64(9)}"
    params: dict[str, object] = {}
    if watermark is not None:
        params["since"] = _param_time(watermark)
    new_sessions = (
        f"SELECT DISTINCT {_SESSION_KEY} FROM {raw} WHERE {_SPAN_FILTER} "
        f"AND Timestamp >= {since} - toIntervalSecond({lateness_seconds})"
    )
    days, spans_read = _replace_scope_days(client, raw, staging, database, new_sessions, params)
    raw_totals = client.arrow(
        f"SELECT count() AS spans, sum(span_checksum(SpanId)) AS checksum "
        f"FROM {raw} WHERE {_SPAN_FILTER}"
    ).to_pylist()[0]
    evidence_totals = client.arrow(
        f"SELECT sum(spans) AS spans, sum(span_checksum) AS checksum "
        f"FROM {database}.session_activity"
    ).to_pylist()[0]
    if all(int(raw_totals[k] or 0) == int(evidence_totals[k] or 0) for k in raw_totals):
        return days, spans_read, 0
    late = max(abs(int(raw_totals["spans"] or 0) - int(evidence_totals["spans"] or 0)), 1)
    mismatched = f"""
        SELECT coalesce(r.session_key, e.session_key) FROM (
            SELECT {_SESSION_KEY} AS session_key, count() AS spans,
                sum(span_checksum(SpanId)) AS checksum
            FROM {raw} WHERE {_SPAN_FILTER} GROUP BY session_key
        ) AS r
        FULL OUTER JOIN (
            SELECT ifNull(session_id, '\\0') AS session_key, sum(spans) AS spans,
                sum(span_checksum) AS checksum
            FROM {database}.session_activity GROUP BY session_key
        ) AS e ON r.session_key = e.session_key
        WHERE coalesce(r.spans, 0) <> coalesce(e.spans, 0)
            OR coalesce(r.checksum, 0) <> coalesce(e.checksum, 0)
    """
    more_days, more_spans = _replace_scope_days(client, raw, staging, database, mismatched, {})
    return days + more_days, spans_read + more_spans, late


def _replace_scope_days(
    client: ClickHouseClient,
    raw: str,
    staging: str,
    database: str,
    scope_sessions: str,
    params: Mapping[str, object],
) -> tuple[int, int]:
    """Rebuild and swap in the day partitions of the sessions ``scope_sessions`` selects.

    Their rows lie on the days D their spans cover (now, or before: the
    evidence's own days count too, for spans that are gone), so every session
    with a span or an evidence row on D is recomputed from all its spans and
    exactly the partitions D are replaced; rows on other days belong to
    sessions whose spans did not change.
    """
    client.command(
        f"CREATE TABLE scope_sessions ENGINE = Memory AS {scope_sessions}", dict(params) or None
    )
    client.command(
        f"""
        CREATE TABLE scope_days ENGINE = Memory AS
        SELECT DISTINCT toDate(Timestamp) AS day FROM {raw}
        WHERE {_SPAN_FILTER} AND {_SESSION_KEY} IN (SELECT * FROM {staging}.scope_sessions)
        UNION DISTINCT
        SELECT DISTINCT day FROM {database}.session_activity
        WHERE ifNull(session_id, '\\0') IN (SELECT * FROM {staging}.scope_sessions)
        """
    )
    days = list(client.arrow("SELECT day FROM scope_days").column("day").to_pylist())
    if not days:
        client.command("DROP TABLE scope_days")
        client.command("DROP TABLE scope_sessions")
        return 0, 0
    client.command(
        f"""
        CREATE VIEW otel_traces AS
        SELECT * FROM {raw}
        WHERE {_SPAN_FILTER} AND {_SESSION_KEY} IN (
            SELECT DISTINCT {_SESSION_KEY} FROM {raw}
            WHERE {_SPAN_FILTER} AND toDate(Timestamp) IN (SELECT day FROM {staging}.scope_days)
            UNION DISTINCT
            SELECT ifNull(session_id, '\\0') FROM {database}.session_activity
            WHERE day IN (SELECT day FROM {staging}.scope_days)
        )
        """
    )
    for name in _models.SPAN_MODELS:
        _create_model(client, name, name)
    spans_read = int(_scalar(client, "SELECT count() FROM otel_traces") or 0)
    for name in _models.SPAN_MODELS:
        present = {
            str(p)
            for p in client.arrow(
                "SELECT DISTINCT partition FROM system.parts "
                "WHERE database = {db:String} AND table = {t:String} AND active",
                {"db": staging, "t": name},
            )
            .column("partition")
            .to_pylist()
        }
        for day in days:
            key = day.isoformat()
            if key in present:
                client.command(
                    f"ALTER TABLE {database}.{name} REPLACE PARTITION '{key}' FROM {staging}.{name}"
                )
            else:
                client.command(f"ALTER TABLE {database}.{name} DROP PARTITION '{key}'")
        client.command(f"DROP TABLE {staging}.{name} SYNC")
    client.command("DROP VIEW otel_traces")
    client.command("DROP TABLE scope_days")
    client.command("DROP TABLE scope_sessions")
    return len(days), spans_read


def _build_session_models(
    client: ClickHouseClient,
    staging: str,
    database: str,
    s_value: int,
    clusters: ClusterSettings,
) -> None:
    """Rebuild the session models in ``staging`` from the current span tables, then swap them in."""
    for name in _models.SPAN_MODELS:
        client.command(f"CREATE VIEW {name} AS SELECT * FROM {database}.{name}")
    _assign_clusters(client, database, clusters)
    client.command(f"CREATE VIEW {REGISTRY} AS SELECT * FROM {database}.{REGISTRY}")
    existing = _tables(client, database)
    params = {
        "boilerplate_min_other_sessions": s_value,
        "boilerplate_similarity": clusters.threshold,
    }
    for name in _models.SESSION_MODELS:
        _create_model(client, name, name, params if name == "evidence_params" else None)
    for name in _models.SESSION_MODELS:
        _swap_in(client, staging, database, name, name in existing)


_REGISTRY_DDL: Final = """
CREATE TABLE IF NOT EXISTS {table} (
    fingerprint String,
    language String,
    sketch Nullable(String),
    first_seen Nullable(DateTime64(9)),
    cluster_id String,
    is_leader Bool,
    similarity Nullable(Float64),
    seq Int64,
    threshold Float64,
    band_rows Int64,
    band_count Int64,
    clustered_at DateTime64(6)
) ENGINE = MergeTree ORDER BY fingerprint
"""


def _assign_clusters(client: ClickHouseClient, database: str, settings: ClusterSettings) -> None:
    """Cluster new code shapes (clusters.py, in an in-process DuckDB) into the registry.

    Only shapes the registry lacks leave ClickHouse (one row per fingerprint
    and session), with the registry itself; new registry rows come back.
    Changed settings re-cluster from scratch, as on DuckDB.
    """
    registry = f"{database}.{REGISTRY}"
    client.command(_REGISTRY_DDL.replace("{table}", registry))
    stored = client.arrow(f"SELECT DISTINCT threshold, band_rows, band_count FROM {registry}")
    if stored.num_rows and (
        stored.num_rows > 1 or tuple(stored.to_pylist()[0].values()) != settings.as_tuple()
    ):
        client.command(f"TRUNCATE TABLE {registry}")
    shapes = _naive(
        client.arrow(
            f"SELECT * FROM {database}.session_fingerprints "
            f"WHERE fingerprint NOT IN (SELECT fingerprint FROM {registry})"
        )
    )
    if not shapes.num_rows:
        return
    known = _naive(client.arrow(f"SELECT * FROM {registry}"))
    local = duckdb.connect()
    try:
        _models.install_dialect(local)
        local.register("shapes_in", shapes)
        local.execute("CREATE TABLE session_fingerprints AS SELECT * FROM shapes_in")
        from .clusters import create_registry

        create_registry(local)
        if known.num_rows:
            local.register("known_in", known)
            local.execute(f"INSERT INTO {REGISTRY} SELECT * FROM known_in")
        assign_shape_clusters(local, settings)
        added = local.sql(
            f"SELECT * FROM {REGISTRY} WHERE fingerprint IN "
            "(SELECT fingerprint FROM session_fingerprints)"
        ).to_arrow_table()
    finally:
        local.close()
    if added.num_rows:
        client.insert_arrow(registry, added)


def _naive(table: pa.Table) -> pa.Table:
    """Arrow from ClickHouse as DuckDB's models expect it.

    Zoned timestamps become naive UTC (TIMESTAMP_NS, not TIMESTAMPTZ),
    dictionary (LowCardinality) columns plain strings, unsigned ints signed.
    """
    columns = []
    for column in table.columns:
        kind = column.type
        if pa.types.is_dictionary(kind):
            column = column.cast(kind.value_type)
            kind = column.type
        if pa.types.is_timestamp(kind) and kind.tz is not None:
            column = column.cast(pa.timestamp(kind.unit))
        elif pa.types.is_unsigned_integer(kind):
            column = column.cast(pa.int64())
        columns.append(column)
    return pa.table(columns, names=table.column_names)


def run_audits(
    client: ClickHouseClient, database: str = DEFAULT_DATABASE, raw: str = "default.otel_traces"
) -> dict[str, list[dict[str, Any]]]:
    """Run every audit (``sql/audits/``) on the ClickHouse evidence; empty lists = sound."""
    install_dialect(client)
    client.use(database)
    try:
        client.command(f"CREATE OR REPLACE VIEW otel_traces AS SELECT * FROM {raw}")
        return {name: client.arrow(_model_sql(name)).to_pylist() for name in _models.AUDITS}
    finally:
        client.command(f"DROP VIEW IF EXISTS {database}.otel_traces")
        client.use("default")


EVIDENCE_TABLES: Final = (*_models.SPAN_MODELS, *_models.SESSION_MODELS, REGISTRY)


@cache
def _duckdb_schemas() -> dict[str, list[tuple[str, str]]]:
    """Each evidence table's columns and DuckDB types, from the models run over no spans."""
    con = duckdb.connect()
    try:
        con.execute(_models.sql_text("_otel_traces_fixture"))
        _models.refresh(con)
        rows = con.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() "
            "WHERE database_name = current_database() ORDER BY table_name, column_index"
        ).fetchall()
    finally:
        con.close()
    schemas: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in rows:
        schemas.setdefault(str(table), []).append((str(column), str(kind)))
    return schemas


def evidence_replica(
    client: ClickHouseClient, database: str = DEFAULT_DATABASE
) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB holding ``database``'s evidence tables (never raw spans).

    Without ``otel_traces`` the readers use the tables as they are (a copy of
    evidence), so report, compare, sessions, export and the dashboard run
    unchanged on it.
    """
    tables = _tables(client, database)
    missing = [name for name in EVIDENCE_TABLES if name not in tables]
    if missing:
        raise PipelineError(
            f"No evidence in ClickHouse database {database!r} ({', '.join(missing)} missing): "
            "run recurscope report --engine clickhouse --refresh, or refresh from Python "
            "(recurscope.pipeline.evidence.clickhouse.refresh)."
        )
    con = duckdb.connect()
    schemas = _duckdb_schemas()
    for name in EVIDENCE_TABLES:
        data = _naive(client.arrow(f"SELECT * FROM {database}.{name}"))
        con.register("replica_in", data)
        # DuckDB's own column types: ClickHouse answers comparisons as UInt8,
        # counts as UInt64, and readers (polars frames) care.
        columns = ", ".join(
            f'CAST("{column}" AS {kind}) AS "{column}"' for column, kind in schemas[name]
        )
        con.execute(f"CREATE TABLE {name} AS SELECT {columns} FROM replica_in")
        con.unregister("replica_in")
    # The refresh log, numbered as DuckDB's: readers check which SQL built the tables.
    log = _naive(client.arrow(f"SELECT * FROM {database}.evidence_refresh_log"))
    con.register("replica_in", log)
    # Evidence built by today's SQL and dialect reads as built by today's SQL.
    con.execute(
        f"CREATE TABLE {_models.REFRESH_LOG} AS SELECT row_number() OVER "
        "(ORDER BY refreshed_at) AS seq, * REPLACE (CASE WHEN models_version = ? THEN ? "
        "ELSE models_version END AS models_version) FROM replica_in",
        [models_version(), _models.models_version()],
    )
    con.unregister("replica_in")
    return con


ENGINE_LOCAL_COLUMNS: Final = frozenset({"span_checksum", "clustered_at"})
"""Columns each engine fills its own way (a hash, a clock); never compared across engines."""


def normalized_rows(table: pa.Table, columns: list[str] | None = None) -> list[tuple[Any, ...]]:
    """Rows as sorted tuples, types normalised across engines (for comparing evidence).

    Booleans become 0/1 (ClickHouse answers some predicates as UInt8),
    decimals and floats twelve significant digits, zoned timestamps naive
    UTC, lists tuples and a NULL list ``()`` (ClickHouse arrays are never NULL).
    """
    names = columns if columns is not None else table.column_names
    lists = {
        name
        for name in names
        if pa.types.is_list(table.schema.field(name).type)
        or pa.types.is_large_list(table.schema.field(name).type)
    }
    rows = [
        tuple(() if row[name] is None and name in lists else _normal(row[name]) for name in names)
        for row in table.to_pylist()
    ]
    return sorted(rows, key=repr)


def _normal(value: Any) -> Any:
    import decimal
    import math

    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, decimal.Decimal):
        value = float(value)
    if isinstance(value, float):
        return None if math.isnan(value) else float(f"{value:.12g}")
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    if isinstance(value, (list, tuple)):
        return tuple(_normal(item) for item in value)
    return value


def table_differences(duck: pa.Table, click: pa.Table) -> str:
    """'' when the two tables hold the same rows (normalised), else what differs."""
    columns = [c for c in duck.column_names if c not in ENGINE_LOCAL_COLUMNS]
    missing = [c for c in columns if c not in click.column_names]
    if missing:
        return f"columns missing on ClickHouse: {', '.join(missing)}"
    a, b = normalized_rows(duck, columns), normalized_rows(click, columns)
    if a == b:
        return ""
    if len(a) != len(b):
        return f"{len(a)} rows on DuckDB, {len(b)} on ClickHouse"
    for left, right in zip(a, b, strict=True):
        if left != right:
            cells = [
                f"{name}: {x!r} vs {y!r}"
                for name, x, y in zip(columns, left, right, strict=True)
                if x != y
            ]
            return "first differing row: " + "; ".join(cells[:5])
    return ""


def evidence_differences(
    con: duckdb.DuckDBPyConnection, client: ClickHouseClient, database: str = DEFAULT_DATABASE
) -> dict[str, str]:
    """Each evidence table whose rows differ between a DuckDB store and ClickHouse, and how."""
    found = {}
    for name in EVIDENCE_TABLES:
        problem = table_differences(
            con.sql(f"SELECT * FROM {name}").to_arrow_table(),
            _naive(client.arrow(f"SELECT * FROM {database}.{name}")),
        )
        if problem:
            found[name] = problem
    return found


def raw_table(dsn: str) -> str:
    """The exporter's table a DSN points at: ``<database>.otel_traces`` (``default`` when unnamed)."""
    parts = urlsplit(dsn)
    if parts.scheme.lower() == "chdb":
        return "default.otel_traces"
    database = parts.path.strip("/") or "default"
    if not re.fullmatch(r"\w+", database):
        raise PipelineError(
            f"--dsn names database {database!r}: use letters, digits and _ only "
            "(the database the Collector's exporter writes otel_traces to)."
        )
    return f"{database}.otel_traces"


def _string_literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _time_literal(value: datetime | None) -> str:
    return "NULL" if value is None else f"toDateTime64({_string_literal(_param_time(value))}, 9)"


def session_spine(
    client: ClickHouseClient,
    raw: str,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    service: str | None = None,
    origins: tuple[str, ...] | None = None,
) -> pa.Table:
    """One row per session of ``raw``, computed in ClickHouse: what ``recurscope sessions`` lists.

    The ClickHouse twin of ``inspect._SESSIONS_SQL`` with the filter decided
    here (``in_window``, ``of_service``, ``of_origin``), so only one row per
    session leaves ClickHouse (``inspect.SESSION_SPINE``).
    """
    install_dialect(client)
    session = "attr_str(SpanAttributes, 'gen_ai.conversation.id')"
    since_at, until_at = _time_literal(since), _time_literal(until)
    wanted_origins = (
        "NULL" if origins is None else "[" + ", ".join(map(_string_literal, origins)) + "]"
    )
    service_value = "NULL" if service is None else _string_literal(service)
    table = client.arrow(
        f"""
        WITH spans AS (
            SELECT
                {session} AS session_id,
                Timestamp AS started_at,
                nullIf(toString(ServiceName), '') AS service_name,
                coalesce(attr_str(ResourceAttributes, 'recurscope.origin'), 'observed') AS origin,
                toString(SpanName) AS span_name,
                SpanName IN ({_models.SPAN_NAME_LIST}) AS is_recurscope,
                SpanId AS span_id
            FROM {raw}
            WHERE {session} IS NOT NULL
        )
        SELECT
            assumeNotNull(session_id) AS session_id,
            min(started_at) AS first_span_at,
            max(started_at) AS last_span_at,
            toInt64(count()) AS spans,
            toInt64(countIf(span_name = 'recurscope.call')) AS calls,
            toInt64(countIf(span_name = 'recurscope.trim')) AS plannings,
            toInt64(countIf(span_name = 'recurscope.goal.boundary_shift')) AS boundary_shifts,
            toInt64(countIf(is_recurscope)) AS recurscope_spans,
            toInt64(sumIf(span_checksum(span_id), is_recurscope)) AS span_checksum,
            toInt64(uniqExact(service_name)) AS services,
            arraySort(groupUniqArray(service_name)) AS service_names,
            arraySort(if(countIf(is_recurscope) > 0,
                         groupUniqArrayIf(origin, is_recurscope),
                         groupUniqArray(origin))) AS origins,
            max(({since_at} IS NULL OR started_at >= {since_at})
                AND ({until_at} IS NULL OR started_at < {until_at})) = 1 AS in_window,
            {service_value} IS NULL OR max(service_name = {service_value}) = 1 AS of_service,
            {wanted_origins} IS NULL OR hasAny(origins, {wanted_origins}) AS of_origin
        FROM spans
        GROUP BY session_id
        """
    )
    return _naive(table)


@contextmanager
def open_evidence(
    dsn: str,
    *,
    refresh_first: bool = False,
    database: str = DEFAULT_DATABASE,
    min_other_sessions: int = _models.DEFAULT_MIN_OTHER_SESSIONS,
    clusters: ClusterSettings = DEFAULT_CLUSTERS,
    session_filter: Mapping[str, Any] | None = None,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """The ClickHouse evidence at ``dsn`` as an in-memory DuckDB (see :func:`evidence_replica`).

    ``refresh_first`` brings the evidence up to date inside ClickHouse first
    (it needs rights to create databases, tables and functions); otherwise the
    evidence is read as the last refresh left it. ``session_filter``
    (``since``, ``until``, ``service``, ``origins``) adds the session spine
    ``recurscope sessions`` lists, computed in ClickHouse for that filter.
    """
    client = connect(dsn)
    try:
        if refresh_first:
            raw = raw_table(dsn)
            tables = client.arrow(
                "SELECT count() FROM system.tables WHERE database = {db:String} "
                "AND name = 'otel_traces'",
                {"db": raw.split(".")[0]},
            )
            if not tables.column(0)[0].as_py():
                raise PipelineError(
                    f"No {raw} at {_redacted(dsn)}: point --dsn at the database the "
                    "Collector's ClickHouse exporter writes to (its `database` option)."
                )
            refresh(
                client,
                raw=raw,
                database=database,
                min_other_sessions=min_other_sessions,
                clusters=clusters,
            )
        con = evidence_replica(client, database)
        if session_filter is not None:
            from .inspect import SESSION_SPINE

            spine = session_spine(client, raw_table(dsn), **session_filter)
            con.register("spine_in", spine)
            con.execute(f"CREATE TABLE {SESSION_SPINE} AS SELECT * FROM spine_in")
            con.unregister("spine_in")
    finally:
        client.close()
    try:
        yield con
    finally:
        con.close()


def write_evidence_store(
    dsn: str, path: str | Path, *, refresh_first: bool = False, database: str = DEFAULT_DATABASE
) -> Path:
    """Write ClickHouse's evidence into a recurscope store file at ``path`` (for the dashboard).

    The file is a real store (schema, an empty ``otel_traces``) holding the
    evidence tables as ClickHouse built them and a refresh log that accounts
    for its zero raw spans, so readers use the tables as they are: a copy of
    the evidence as of now, never of raw spans. ``path`` is replaced.
    """
    from ..store.database import Store

    target = Path(path)
    for leftover in (target, target.with_name(target.name + ".wal")):
        leftover.unlink(missing_ok=True)
    Store.open(target).close()
    with open_evidence(dsn, refresh_first=refresh_first, database=database) as replica:
        replica.execute(f"ATTACH {_duck_literal(str(target))} AS store")
        try:
            for name in EVIDENCE_TABLES:
                replica.execute(
                    f"CREATE OR REPLACE TABLE store.main.{name} AS SELECT * FROM memory.main.{name}"
                )
            replica.execute(
                f"""
                CREATE OR REPLACE TABLE store.main.{_models.REFRESH_LOG} AS
                SELECT CAST(seq AS BIGINT) AS seq,
                    CAST(refreshed_at AS TIMESTAMP) AS refreshed_at,
                    mode, reason,
                    CAST(NULL AS BIGINT) AS sessions_refreshed,
                    CAST(0 AS BIGINT) AS late_spans,
                    CAST(spans_read AS BIGINT) AS spans_read,
                    CAST(0 AS BIGINT) AS spans_total,  -- the copy holds no raw spans
                    CAST(watermark AS TIMESTAMP_NS) AS watermark,
                    seconds, models_version,
                    CAST(min_other_sessions AS BIGINT) AS min_other_sessions
                FROM memory.main.{_models.REFRESH_LOG}
                """
            )
            replica.execute("CHECKPOINT store")
        finally:
            replica.execute("DETACH store")
    return target


def _duck_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
