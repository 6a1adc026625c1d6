"""A stand-in for a ClickHouse server's HTTP interface, answered by chdb (tests only).

No ClickHouse server can be started where the tests run, and chdb has no
HTTP listener, so this serves the part of the HTTP interface that
clickhouse-connect uses — a query in the body or the ``query`` parameter,
``database``, ``param_*`` and settings in the URL, ``FORMAT`` at the end of
the statement, data for ``INSERT ... FORMAT Arrow`` in the body, errors as
HTTP 500 with ClickHouse's message — by running each statement in one chdb
session. It is a protocol double, not a server: one request at a time, no
authentication, no compression of answers.
"""

from __future__ import annotations

import http.server
import re
import tempfile
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

_NOT_SETTINGS = {
    "query",
    "query_id",
    "database",
    "default_format",
    "session_id",
    "session_timeout",
    "session_check",
    "compress",
    "decompress",
    "enable_http_compression",
    "wait_end_of_query",
    "user",
    "password",
    "send_progress_in_http_headers",
    "http_headers_progress_interval_ms",
    "quota_key",
}
_FORMAT = re.compile(r"\s+FORMAT\s+(\w+)\s*;?\s*$", re.IGNORECASE | re.DOTALL)
_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+(.+?)\s+FORMAT\s+(\w+)\s*$", re.IGNORECASE | re.DOTALL)


class ChdbHttpServer:
    """``with ChdbHttpServer() as server: get_client(dsn=server.dsn)``."""

    def __init__(self) -> None:
        from chdb import session as chdb_session

        factory: Any = chdb_session.Session
        self.session: Any = factory()
        self._scratch = tempfile.TemporaryDirectory(prefix="chdb-http-")
        self._lock = threading.Lock()
        self.statements: list[str] = []
        handler = self._handler()
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def dsn(self) -> str:
        return f"clickhouse://default:@127.0.0.1:{self._server.server_address[1]}/default"

    def __enter__(self) -> ChdbHttpServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self.session.close()
        self._scratch.cleanup()

    def run(self, params: dict[str, str], body: bytes) -> tuple[int, bytes, str]:
        query = params.get("query")
        data = b""
        if query is None:
            query = body.decode("utf-8")
        else:
            data = body
        with self._lock:
            self.statements.append(query)
            try:
                self.session.query(f"USE {params.get('database', 'default')}", "CSV")
                for key, value in params.items():
                    if key not in _NOT_SETTINGS and not key.startswith("param_"):
                        self.session.query(f"SET {key} = '{value}'", "CSV")
                values = {k[6:]: v for k, v in params.items() if k.startswith("param_")}
                insert = _INSERT.match(query)
                if insert:
                    path = Path(self._scratch.name) / "insert.bin"
                    path.write_bytes(data)
                    self.session.query(
                        f"INSERT INTO {insert.group(1)} SELECT * FROM "
                        f"file('{path}', {insert.group(2)})",
                        "CSV",
                    )
                    return 200, b"", "TabSeparated"
                found = _FORMAT.search(query)
                fmt = found.group(1) if found else params.get("default_format", "TabSeparated")
                sql = query[: found.start()] if found else query
                result = self.session.query(sql, fmt, params=values)
                return 200, bytes(result.bytes()), fmt
            except Exception as exc:  # ClickHouse answers errors as 500 + the message
                return 500, str(exc).encode("utf-8"), "TabSeparated"

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _answer(self, body: bytes) -> None:
                params = {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}
                if urlsplit(self.path).path == "/ping":
                    status, payload, fmt = 200, b"Ok.\n", "TabSeparated"
                else:
                    status, payload, fmt = outer.run(params, body)
                self.send_response(status)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("X-ClickHouse-Format", fmt)
                if status != 200:
                    self.send_header("X-ClickHouse-Exception-Code", "1")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:
                self._answer(b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                encoding = (self.headers.get("Content-Encoding") or "").lower()
                if encoding == "lz4":
                    import lz4.frame

                    body = lz4.frame.decompress(body)
                elif encoding == "zstd":
                    import zstandard

                    body = zstandard.ZstdDecompressor().decompress(body)
                self._answer(body)

        return Handler
