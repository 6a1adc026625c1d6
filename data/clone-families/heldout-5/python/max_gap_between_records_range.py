import datetime as dt

recs = context["conversation_history"]
fmt = "%Y-%m-%dT%H:%M:%SZ"
stamps = [dt.datetime.strptime(r["timestamp"], fmt) for r in recs]

gaps = []
for i in range(1, len(stamps)):
    gaps.append((stamps[i] - stamps[i - 1]).total_seconds())

result = max(gaps) if gaps else None
