from datetime import datetime

records = context["conversation_history"]
opened_at = {}
solved_after = {}

for rec in records:
    objective = rec.get("goal") or ""
    if objective == "":
        continue
    when = datetime.fromisoformat(rec["timestamp"].replace("Z", "+00:00"))
    if objective not in opened_at:
        opened_at[objective] = when
    summary = rec.get("outcome_summary")
    succeeded = bool(summary) and summary.get("ok") == True
    if succeeded and objective not in solved_after:
        solved_after[objective] = round((when - opened_at[objective]).total_seconds() / 60, 2)

result = {"minutes_to_first_success": solved_after, "goals_seen": len(opened_at)}
