import logging
from datetime import datetime, timezone

log = logging.getLogger("agent.history")
MAX_PREVIEW = 80


def to_dt(stamp):
    if stamp.endswith("Z"):
        stamp = stamp[:-1] + "+00:00"
    return datetime.fromisoformat(stamp).astimezone(timezone.utc)


def history_span(entries):
    if not entries or len(entries) == 1:
        return None
    start = to_dt(entries[0].get("timestamp"))
    end = to_dt(entries[-1].get("timestamp"))
    return int((end - start).total_seconds())


conversation = context.get("conversation_history", [])
log.debug("inspecting %d records", len(conversation))
preview = str(conversation[-1].get("content") or "")[:MAX_PREVIEW] if conversation else ""
span = history_span(conversation)
if span is None:
    result = {"ok": False, "reason": "need at least two records"}
else:
    result = {"ok": True, "seconds": span, "hours": round(span / 3600, 3), "last_preview": preview}
