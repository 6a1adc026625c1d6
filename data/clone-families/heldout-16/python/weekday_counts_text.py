import datetime as dt

history = context["conversation_history"]
per_day = {}
for item in history:
    when = item.get("timestamp")
    if when is None:
        continue
    name = dt.datetime.fromisoformat(when.replace("Z", "+00:00")).strftime("%a")
    per_day[name] = per_day.get(name, 0) + 1

if per_day:
    ordered = sorted(per_day.items(), key=lambda kv: (-kv[1], kv[0]))
    result = "Records by weekday: " + ", ".join(f"{day} {count}" for day, count in ordered)
else:
    result = "No records in the history."
