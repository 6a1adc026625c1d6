from datetime import datetime

FMT = "%Y-%m-%dT%H:%M:%SZ"
log = context.get("conversation_history") or []

started = {}
lines = []
done = set()
for entry in log:
    goal = entry.get("goal")
    if not goal:
        continue
    at = datetime.strptime(entry["timestamp"], FMT)
    started.setdefault(goal, at)
    if goal in done:
        continue
    if (entry.get("outcome_summary") or {}).get("ok") is True:
        done.add(goal)
        waited = int((at - started[goal]).total_seconds())
        lines.append(f"{goal}: first success after {waited}s ({entry['call_id']})")

pending = [g for g in started if g not in done]
if pending:
    lines.append("no success yet: " + ", ".join(pending))
"\n".join(lines) if lines else "no goals in history"
