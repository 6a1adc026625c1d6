"""``recurscope serve``: the OTLP/HTTP and OTLP/gRPC receiver."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from recurscope.cli._options import add_db_option, command, fail, parse_size
from recurscope.pipeline.ingest.receiver import (
    DEFAULT_GRPC_PORT,
    DEFAULT_HOST,
    DEFAULT_PORT,
    TOKEN_ENV_VAR,
    GrpcListenError,
    Receiver,
    ReceiverConfig,
)
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep

_log = logging.getLogger("recurscope.serve")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = ReceiverConfig()
    add_db_option(parser)
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default: {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on; 0 picks a free one (default: {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--grpc-port",
        type=int,
        default=DEFAULT_GRPC_PORT,
        metavar="N",
        help="port for OTLP/gRPC on the same host; 0 picks a free one (default: "
        f"{DEFAULT_GRPC_PORT}, or a free one with --port 0)",
    )
    parser.add_argument(
        "--no-grpc", action="store_true", help="do not listen for OTLP/gRPC (OTLP/HTTP only)"
    )
    parser.add_argument(
        "--token",
        metavar="TOKEN",
        help=f"require 'Authorization: Bearer TOKEN' (default: ${TOKEN_ENV_VAR}, else none)",
    )
    parser.add_argument(
        "--spool",
        metavar="DIR",
        help="where acknowledged requests wait to be stored (default: beside the store, "
        "e.g. data/recurscope.spool)",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=parse_size,
        default=defaults.max_body_bytes,
        metavar="SIZE",
        help="largest request body as sent; larger gets 413 (default: 20MiB)",
    )
    parser.add_argument(
        "--max-decompressed-bytes",
        type=parse_size,
        default=defaults.max_decompressed_bytes,
        metavar="SIZE",
        help="largest body after gzip/deflate; larger gets 413 (default: 64MiB)",
    )
    parser.add_argument(
        "--max-request-spans",
        type=int,
        default=defaults.max_request_spans,
        metavar="N",
        help="most spans in one request; more gets 413 (bounds a request's memory; "
        f"default: {defaults.max_request_spans:,})",
    )
    parser.add_argument(
        "--max-compression-ratio",
        type=float,
        default=defaults.max_compression_ratio,
        metavar="RATIO",
        help="largest decompressed/compressed ratio once past 16 MiB; more gets 413 "
        f"(default: {defaults.max_compression_ratio:g})",
    )
    parser.add_argument(
        "--max-backlog-bytes",
        type=parse_size,
        default=defaults.max_backlog_bytes,
        metavar="SIZE",
        help="spooled bytes not yet stored above which requests get 503 + Retry-After "
        "(default: 512MiB)",
    )
    parser.add_argument(
        "--max-in-flight",
        type=int,
        default=defaults.max_in_flight,
        metavar="N",
        help="requests decoded and spooled at once; more wait up to --queue-timeout "
        f"(default: {defaults.max_in_flight})",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=defaults.max_connections,
        metavar="N",
        help="open connections; at the cap a new one replaces the longest-idle one "
        f"(default: {defaults.max_connections})",
    )
    parser.add_argument(
        "--max-buffered-bytes",
        type=parse_size,
        default=defaults.max_buffered_bytes,
        metavar="SIZE",
        help="request bodies held in memory at once across connections (default: 256MiB)",
    )
    for flag, value, what in (
        ("--header-timeout", defaults.header_timeout, "for a request line and headers"),
        ("--body-timeout", defaults.body_timeout, "for a whole body (then 408)"),
        ("--keep-alive-timeout", defaults.keep_alive_timeout, "an idle connection is kept"),
        ("--queue-timeout", defaults.queue_timeout, "a request waits for a slot (then 503)"),
    ):
        parser.add_argument(
            flag,
            type=float,
            default=value,
            metavar="SECONDS",
            help=f"seconds {what} (default: {value:g})",
        )
    parser.add_argument(
        "--retry-after-max",
        type=int,
        default=defaults.retry_after_max,
        metavar="SECONDS",
        help="longest Retry-After to send; keep it short so exporters retry before their "
        f"timeout (default: {defaults.retry_after_max})",
    )
    parser.add_argument(
        "--snapshot-interval",
        type=float,
        default=defaults.snapshot_interval,
        metavar="SECONDS",
        help="least time between snapshots published for readers while busy "
        f"(default: {defaults.snapshot_interval:g})",
    )
    parser.add_argument(
        "--shutdown-timeout",
        type=float,
        default=defaults.shutdown_timeout,
        metavar="SECONDS",
        help="on SIGTERM/Ctrl-C, how long to try storing the spool before leaving the rest "
        f"for the next start (default: {defaults.shutdown_timeout:g})",
    )
    parser.add_argument(
        "--accept-simulated",
        action="store_true",
        help="also store spans whose resource says recurscope.origin=simulated or replayed "
        "(default: they are refused into quarantine; a receiver collects observed evidence)",
    )
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="log every request and drain step"
    )


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope serve`` on the CLI's subparsers."""
    parser = subparsers.add_parser(
        "serve",
        help="receive OTLP traces (HTTP: protobuf or JSON; gRPC) into the DuckDB store",
        description=(
            "Listen for OpenTelemetry spans on OTLP/HTTP (POST /v1/traces, protobuf or JSON, "
            "gzip or deflate) and OTLP/gRPC (TraceService/Export, port 4317) and store them "
            "in the recurscope DuckDB store. A 200 (gRPC: OK) means the "
            "spans are on disk (a spool beside the store) and survive a crash; they reach "
            "the store within a second or two, or as soon as another writer (recurscope "
            "ingest) lets go of it. Stop with Ctrl-C or SIGTERM: in-flight requests finish "
            "and the spool is stored first. Point exporters at it with "
            "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 (or :4317 with "
            "OTEL_EXPORTER_OTLP_PROTOCOL=grpc)."
        ),
        epilog="Example: recurscope serve --db data/recurscope.duckdb --port 4318 --grpc-port 4317",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_arguments(parser)
    parser.set_defaults(func=run_serve_command)


def _config_from_args(args: argparse.Namespace) -> ReceiverConfig:
    from recurscope.pipeline.store.database import resolve_db_path

    token = args.token or os.environ.get(TOKEN_ENV_VAR) or None
    return ReceiverConfig(
        db_path=resolve_db_path(args.db),
        host=args.host,
        port=args.port,
        grpc_port=None if args.no_grpc else args.grpc_port,
        spool_dir=Path(args.spool) if args.spool else None,
        token=token,
        max_body_bytes=args.max_body_bytes,
        max_decompressed_bytes=args.max_decompressed_bytes,
        max_compression_ratio=args.max_compression_ratio,
        max_request_spans=max(args.max_request_spans, 1),
        max_backlog_bytes=args.max_backlog_bytes,
        max_in_flight=max(args.max_in_flight, 1),
        max_connections=max(args.max_connections, 1),
        max_buffered_bytes=args.max_buffered_bytes,
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        keep_alive_timeout=args.keep_alive_timeout,
        queue_timeout=args.queue_timeout,
        retry_after_max=max(args.retry_after_max, 1),
        snapshot_interval=args.snapshot_interval,
        shutdown_timeout=args.shutdown_timeout,
        accept_simulated=args.accept_simulated,
    )


@command("serve", errors=(GrpcListenError,))
def run_serve_command(args: argparse.Namespace) -> int:
    """The ``serve`` command: runs until SIGTERM/SIGINT; returns the exit code."""
    if not _log.handlers:  # once per process, however often the command runs
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("recurscope serve: %(message)s"))
        _log.addHandler(handler)
        _log.propagate = False
    _log.setLevel(logging.DEBUG if args.verbose else logging.INFO)
    config = _config_from_args(args)
    receiver = Receiver(config, upkeep=EvidenceUpkeep(interval=config.snapshot_interval))
    try:
        receiver.start()
    except GrpcListenError:
        raise  # its own message names the gRPC port
    except OSError as error:
        return fail(
            "serve",
            f"cannot listen on {config.host}:{config.port}: "
            f"{error.strerror or error}. Another receiver or collector may use that port: "
            "stop it, or pick another with --port.",
        )
    stop = threading.Event()
    signals_seen = 0

    def on_signal(signum: int, frame: object) -> None:
        nonlocal signals_seen
        signals_seen += 1
        if signals_seen > 1:
            # Acknowledged spans are in the spool; the next start stores them.
            print(
                f"recurscope serve: stopping now; spooled spans stay in {config.spool_path} "
                "and are stored at the next start",
                file=sys.stderr,
                flush=True,
            )
            os._exit(1)
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    grpc_endpoint = receiver.grpc_endpoint
    also = f" and OTLP/gRPC on {grpc_endpoint}" if grpc_endpoint is not None else ""
    print(
        f"recurscope serve: listening on {receiver.url}{also} (store {config.db_path}, spool "
        f"{config.spool_path}{', bearer token required' if config.token else ''})",
        flush=True,
    )
    try:
        while not stop.wait(0.5):
            pass
        print("recurscope serve: stopping: finishing requests and storing the spool", flush=True)
        empty = receiver.stop()
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
    counts = receiver.stats.snapshot()
    left = "" if empty else f"; spooled spans left in {config.spool_path} for the next start"
    print(
        f"recurscope serve: stopped: {counts['requests']:,} requests, "
        f"{counts['spans_acknowledged']:,} spans acknowledged, {counts['spans_stored']:,} "
        f"stored, {counts['duplicates']:,} duplicates, {counts['quarantined']:,} "
        f"quarantined, {counts['throttled']:,} throttled{left}",
        flush=True,
    )
    return 0
