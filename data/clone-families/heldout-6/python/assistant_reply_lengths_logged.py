import logging
import time

started = time.monotonic()
log = logging.getLogger("agent.replies")
PREVIEW_CHARS = 40

history = context.get("conversation_history") or []
if not isinstance(history, list):
    history = list(history)

lengths = []
previews = []
for position, record in enumerate(history):
    if record.get("role", "") != "assistant":
        continue
    body = record.get("content") or ""
    lengths.append(len(body))
    previews.append(body[:PREVIEW_CHARS])

log.info("measured %d assistant replies in %.4fs", len(lengths), time.monotonic() - started)
result = {"lengths": lengths, "previews": previews}
