from datetime import datetime


def moment(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def is_tool_failure(record):
    summary = record.get("outcome_summary") or {}
    return record.get("role") == "tool" and summary.get("ok") is False


history = context.get("conversation_history", [])
stamps = [moment(r["timestamp"]) for r in history if r.get("timestamp")]
latest = max(stamps) if stamps else None
recent = [r for r in history if r.get("timestamp") and is_tool_failure(r) and (latest - moment(r["timestamp"])).total_seconds() <= 30 * 60]
{"window_minutes": 30, "count": len(recent), "call_ids": [r.get("call_id") for r in recent]}
