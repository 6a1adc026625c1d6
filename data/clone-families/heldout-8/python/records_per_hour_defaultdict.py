from collections import defaultdict

turns = context.get("conversation_history") or []
hourly = defaultdict(int)
for turn in turns:
    stamp = turn.get("timestamp") or ""
    if not stamp:
        continue
    hourly[stamp.split(":")[0]] += 1

sorted(hourly.items())
