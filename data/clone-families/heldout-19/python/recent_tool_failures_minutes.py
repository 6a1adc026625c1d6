from datetime import datetime

history = context.get("conversation_history") or []
times = {}
for i, entry in enumerate(history):
    if entry.get("timestamp"):
        times[i] = datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00"))
lines = []
if times:
    newest = max(times.values())
    for i, entry in enumerate(history):
        if i not in times or entry.get("role") != "tool":
            continue
        if (entry.get("outcome_summary") or {}).get("ok") is not False:
            continue
        age = (newest - times[i]).total_seconds() / 60
        if age <= 30:
            lines.append(f"{entry.get('call_id')} ({entry.get('method_name')}) failed {age:.1f} min before the latest record")
result = "\n".join(lines) if lines else "No tool call failed in the last 30 minutes."
