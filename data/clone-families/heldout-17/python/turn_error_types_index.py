history = context.get("conversation_history", [])
user_positions = [i for i, r in enumerate(history) if r.get("role") == "user"]
bounds = list(zip(user_positions, user_positions[1:] + [len(history)]))
result = []
for turn_no, (start, end) in enumerate(bounds, 1):
    failures = [
        r["outcome_summary"]["error_type"]
        for r in history[start:end]
        if isinstance(r.get("outcome_summary"), dict)
        and r["outcome_summary"].get("ok") is False
        and r["outcome_summary"].get("error_type")
    ]
    if failures:
        result.append({
            "turn": turn_no,
            "user_call_id": history[start].get("call_id"),
            "error_types": sorted(set(failures)),
            "failed_records": len(failures),
        })
