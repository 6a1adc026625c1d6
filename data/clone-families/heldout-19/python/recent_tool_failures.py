from datetime import datetime, timedelta


def parse_ts(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


history = context.get("conversation_history", [])
stamped = [r for r in history if r.get("timestamp")]
result = []
if stamped:
    cutoff = max(parse_ts(r["timestamp"]) for r in stamped) - timedelta(minutes=30)
    for record in stamped:
        outcome = record.get("outcome_summary") or {}
        if record.get("role") == "tool" and outcome.get("ok") is False and parse_ts(record["timestamp"]) >= cutoff:
            result.append({
                "call_id": record.get("call_id"),
                "method": record.get("method_name"),
                "error_type": outcome.get("error_type"),
            })
