from datetime import datetime

to_dt = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))
records = [r for r in context["conversation_history"] if r.get("timestamp")]
latest = max((to_dt(r["timestamp"]) for r in records), default=None)
result = [
    r.get("call_id")
    for r in records
    if r.get("role") == "tool"
    and (r.get("outcome_summary") or {}).get("ok") is False
    and (latest - to_dt(r["timestamp"])).total_seconds() <= 1800
]
