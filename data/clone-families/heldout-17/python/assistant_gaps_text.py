from datetime import datetime

records = context.get("conversation_history") or []
stamps = [(r.get("call_id"), datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")))
          for r in records if r.get("role") == "assistant" and r.get("timestamp")]
if len(stamps) < 2:
    result = "Fewer than two timed replies, so there is no gap to report."
else:
    parts = []
    for (prev_id, prev_t), (cur_id, cur_t) in zip(stamps, stamps[1:]):
        parts.append(f"{prev_id} -> {cur_id}: {(cur_t - prev_t).total_seconds():.0f}s")
    result = "Time between my replies: " + "; ".join(parts)
