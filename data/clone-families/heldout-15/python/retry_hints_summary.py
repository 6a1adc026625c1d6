import re

RETRY_AFTER = re.compile(r"retry[- ]after:?\s*(\d+)", re.IGNORECASE)
history = context.get("conversation_history", [])


def hint_for(record):
    summary = record.get("outcome_summary") or {}
    if summary.get("ok") is not False:
        return None
    m = RETRY_AFTER.search(summary.get("error_message") or "")
    return int(m.group(1)) if m else None


hints = {r.get("call_id"): hint_for(r) for r in history}
hints = {k: v for k, v in hints.items() if v is not None}
result = {
    "hints": hints,
    "longest": max(hints.values()) if hints else None,
    "total_wait_seconds": sum(hints.values()),
    "failures": sum(1 for r in history if (r.get("outcome_summary") or {}).get("ok") is False),
}
