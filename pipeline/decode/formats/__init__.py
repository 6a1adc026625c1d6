"""Input formats and their registry.

A format is a :class:`Format`: a reader that turns a byte stream into rows,
rejections and checkpoints, plus a sniffer for auto-detection. New formats
(Recurgent logs, console exporters, chat transcripts) add a module here and
call :func:`register_format`; ``recurscope ingest --format`` lists every
registered name.
"""

from __future__ import annotations

from ...errors import IngestError
from ._base import Decoder, Format, FormatOptions, ReadContext, Reader, ReaderItem, Sniffer

__all__ = [
    "Decoder",
    "Format",
    "FormatOptions",
    "ReadContext",
    "Reader",
    "ReaderItem",
    "Sniffer",
    "detect_format",
    "format_names",
    "get_format",
    "register_format",
]

_FORMATS: dict[str, Format] = {}


def register_format(fmt: Format, *, replace: bool = False) -> None:
    """Make ``fmt`` available to ``--format`` and auto-detection."""
    if fmt.name in _FORMATS and not replace:
        raise ValueError(f"format {fmt.name!r} is already registered; pass replace=True")
    if fmt.name == "auto":
        raise ValueError("'auto' is reserved for detection")
    _FORMATS[fmt.name] = fmt


def format_names() -> list[str]:
    """Registered format names, in registration (= detection tie-break) order."""
    return list(_FORMATS)


def get_format(name: str) -> Format:
    """The format called ``name``; :class:`IngestError` listing the choices if none is."""
    try:
        return _FORMATS[name]
    except KeyError:
        choices = ", ".join(["auto", *_FORMATS])
        raise IngestError(f"unknown format {name!r}: choose one of {choices}") from None


def detect_format(head: bytes, source_name: str) -> Format | None:
    """The format whose sniffer is most confident about ``head``, or ``None``."""
    best: Format | None = None
    best_score = 0
    for fmt in _FORMATS.values():
        score = fmt.sniff(head, source_name)
        if score > best_score:
            best, best_score = fmt, score
    return best


def _register_builtins() -> None:
    from . import otel_go_stdouttrace, otel_python_console, otlp_json, otlp_proto, recurgent_jsonl

    register_format(otlp_json.FORMAT)
    register_format(otlp_proto.FORMAT)
    # Native shapes converted to spans (docs/formats.md); each sniffer scores 2
    # only on its own content, so none of them takes an OTLP file.
    register_format(recurgent_jsonl.FORMAT)
    register_format(otel_python_console.FORMAT)
    register_format(otel_go_stdouttrace.FORMAT)


_register_builtins()
