from datetime import datetime, timezone

log = context["conversation_history"]
prev_user = None
gaps = []
for entry in log:
    if entry.get("speaker") != "user":
        continue
    t = datetime.strptime(entry["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    if prev_user is not None:
        gaps.append({"from": prev_user[0], "to": entry["call_id"],
                     "minutes": round((t - prev_user[1]).total_seconds() / 60, 2)})
    prev_user = (entry["call_id"], t)
result = {"gaps": gaps, "user_messages": len(gaps) + (1 if prev_user else 0)}
