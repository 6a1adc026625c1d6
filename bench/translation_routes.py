"""Which route runs the evidence SQL on ClickHouse: SQLGlot transpiling it, or the dialect layer.

For every model and audit, in dependency order over the same synthetic spans,
the DuckDB result is the reference. Each route runs the model's text on chdb
with the ClickHouse dialect functions installed and the engine's settings,
reading *DuckDB's* upstream tables copied into chdb (so one failure does not
cascade), and the result is compared with DuckDB's (rows, types normalised).

- ``dialect``: the text as written (``$name`` parameters become ``{name:Float64}``);
- ``sqlglot``: ``sqlglot.transpile(text, read="duckdb", write="clickhouse")``.

Both are run on the SQL as committed before the ClickHouse work (``--rev``,
default the commit that introduced this script's parent) and as it is now.

    .venv/bin/pip install sqlglot    # only for this measurement: not a dependency
    .venv/bin/python bench/translation_routes.py [--rev REV] [--sessions N]

Measured 2026-12-02 with sqlglot 30.21 and chdb 4.4 (ClickHouse 26.9):
docs/decisions.md, "One SQL, two engines".
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from recurscope.pipeline.evidence import clickhouse as ch
from recurscope.pipeline.evidence import models as ev
from recurscope.pipeline.testing import create_otel_traces_table, insert_synthetic_spans

ROOT = Path(__file__).resolve().parents[1]
MODELS = (*ev.SPAN_MODELS, *ev.SESSION_MODELS)
REGISTRY = "shape_cluster_members"


def _text_at(rev: str | None, name: str) -> str:
    if rev is None:
        return str(ev.sql_text(name))
    path = ev._sql_paths()[name].relative_to(ROOT)
    shown = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return str(shown.stdout)


def _dialect(sql: str) -> str:
    return re.sub(r"\$(\w+)", r"{\1:Float64}", sql)


def _sqlglot(sql: str) -> str:
    import sqlglot

    return str(sqlglot.transpile(sql, read="duckdb", write="clickhouse")[0])


ROUTES: dict[str, Callable[[str], str]] = {"dialect": _dialect, "sqlglot": _sqlglot}


def measure(rev: str | None, sessions: int) -> dict[str, dict[str, str]]:
    con = duckdb.connect()
    create_otel_traces_table(con)
    insert_synthetic_spans(con, sessions=sessions, seed=3)
    ev.refresh(con)
    ev.install_dialect(con)
    client = ch.connect("chdb://")
    scratch = Path(tempfile.mkdtemp(prefix="routes-"))
    try:
        ch.create_otel_traces(client)
        ch.load_spans(client, con)
        ch.install_dialect(client)
        client.command("CREATE DATABASE ref ENGINE = Atomic")
        client.use("ref")
        client.command("CREATE VIEW otel_traces AS SELECT * FROM default.otel_traces")
        # DuckDB's tables as every model's inputs.
        for name in (*MODELS, REGISTRY):
            path = scratch / f"{name}.parquet"
            pq.write_table(con.sql(f"SELECT * FROM {name}").to_arrow_table(), path)
            client.command(
                f"CREATE TABLE {name} ENGINE = MergeTree ORDER BY tuple() "
                f"AS SELECT * FROM file('{path}', Parquet)"
            )
        params = {"boilerplate_min_other_sessions": 4, "boilerplate_similarity": 0.8}
        results: dict[str, dict[str, str]] = {}
        for name in (*MODELS, *ev.AUDITS):
            text = _text_at(rev, name)
            expected = con.sql(ev.sql_text(name), params=params if "$" in text else None)
            reference = expected.to_arrow_table()
            results[name] = {}
            for route, translate in ROUTES.items():
                try:
                    sql = translate(text)
                    got = ch._naive(client.arrow(sql, params if "{" in sql else None))
                    problem = ch.table_differences(reference, got)
                    results[name][route] = "identical" if not problem else f"differs: {problem}"
                except Exception as exc:  # a route's failure is the measurement
                    first = str(exc).split("\n")[0]
                    first = re.sub(r"^Code: \d+\. DB::Exception: ", "", first)
                    results[name][route] = f"fails: {first[:160]}"
        return results
    finally:
        client.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rev", default="f8a5716", help="the SQL before the ClickHouse work")
    parser.add_argument("--sessions", type=int, default=40)
    args = parser.parse_args(argv)
    for label, rev in ((f"as of {args.rev}", args.rev), ("as now", None)):
        results = measure(rev, args.sessions)
        print(f"\n## Evidence SQL {label}\n")
        print("| file | dialect layer | SQLGlot |")
        print("|---|---|---|")
        for name, by_route in results.items():
            print(f"| {name} | {by_route['dialect']} | {by_route['sqlglot']} |")
        for route in ROUTES:
            ok = sum(1 for r in results.values() if r[route] == "identical")
            print(f"\n{route}: {ok}/{len(results)} identical to DuckDB", end="")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
