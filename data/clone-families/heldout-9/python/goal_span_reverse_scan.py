import calendar, time

records = context.get("conversation_history") or []
to_epoch = lambda s: calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%SZ"))
goals = list(dict.fromkeys(r["goal"] for r in records if r.get("goal")))
out = {}
for goal in goals:
    first = next(r for r in records if r.get("goal") == goal)
    last = next(r for r in reversed(records) if r.get("goal") == goal)
    out[goal] = {"seconds": to_epoch(last["timestamp"]) - to_epoch(first["timestamp"]),
                 "from": first["call_id"], "to": last["call_id"]}
out
