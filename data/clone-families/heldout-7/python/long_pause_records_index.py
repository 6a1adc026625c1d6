from datetime import datetime

entries = context["conversation_history"]
threshold = float(kwargs["seconds"])
resumed = []
for i in range(1, len(entries)):
    t0 = datetime.fromisoformat(entries[i - 1]["timestamp"].replace("Z", "+00:00"))
    t1 = datetime.fromisoformat(entries[i]["timestamp"].replace("Z", "+00:00"))
    idle = (t1 - t0).total_seconds()
    if idle > threshold:
        resumed.append({
            "call_id": entries[i]["call_id"],
            "idle_minutes": round(idle / 60, 1),
            "method": entries[i].get("method_name"),
        })
result = resumed
