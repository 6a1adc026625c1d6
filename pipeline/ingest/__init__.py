"""The ingest stage: decoded spans into the store, from files or from the network.

- :mod:`.files` — ``recurscope ingest`` (``docs/ingest.md``);
- :mod:`.parallel` — decoding in worker processes;
- :mod:`.receiver`, :mod:`.otlp_http`, :mod:`.otlp_grpc`, :mod:`.spool` —
  ``recurscope serve`` (``docs/receiver.md``).
"""

from __future__ import annotations

from .files import IngestReport, SourceReport, ingest

__all__ = ["IngestReport", "SourceReport", "ingest"]
