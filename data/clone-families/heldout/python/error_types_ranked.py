history = context.get("conversation_history") or []
failures = [h for h in history if not (h.get("outcome_summary") or {}).get("ok", True)]
counts = {}
for f in failures:
    et = f["outcome_summary"].get("error_type") or "Unknown"
    counts[et] = counts.get(et, 0) + 1
ranked = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
result = [{"error_type": k, "count": v} for k, v in ranked]
