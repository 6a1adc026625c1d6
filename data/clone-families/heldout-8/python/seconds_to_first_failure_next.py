from datetime import datetime

log = context["conversation_history"]
first_bad = next((e for e in log if e["outcome_summary"].get("ok") is False), None)
if first_bad is None:
    result = {"first_failure": None, "minutes": None}
else:
    start = datetime.fromisoformat(log[0]["timestamp"])
    hit = datetime.fromisoformat(first_bad["timestamp"])
    result = {"first_failure": first_bad["call_id"], "minutes": round((hit - start).total_seconds() / 60, 2)}
