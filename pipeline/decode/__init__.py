"""The decode stage: bytes in, :class:`~recurscope.pipeline.records.SpanRow`\\ s and rejections out.

- :mod:`.otlp` — OTLP JSON and protobuf requests, and OTLP/HTTP bodies;
- :mod:`.sources` — opening inputs (files, gzip, stdin) as one stream;
- :mod:`.formats` — the file formats and their registry;
- :mod:`.validate` — ``recurscope validate``: spans checked against the conventions.

Nothing here touches the store.
"""
