from datetime import datetime, timezone


def to_dt(raw):
    return datetime.strptime(raw, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


history = context.get("conversation_history", [])
ordered_goals = list(dict.fromkeys(r["goal"] for r in history if r.get("goal")))

report = []
for goal in ordered_goals:
    mine = [r for r in history if r.get("goal") == goal]
    win = next((r for r in mine if (r.get("outcome_summary") or {}).get("ok") is True), None)
    if win is None:
        continue
    report.append({
        "goal": goal,
        "first_call": mine[0]["call_id"],
        "success_call": win["call_id"],
        "seconds": (to_dt(win["timestamp"]) - to_dt(mine[0]["timestamp"])).total_seconds(),
    })
result = report
