from datetime import datetime

start_ts = None
end_ts = None
for entry in conversation_history or []:
    raw = entry.get("timestamp")
    if raw is None:
        continue
    if isinstance(raw, (int, float)):
        value = float(raw)
    else:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00")).timestamp()
    if start_ts is None:
        start_ts = value
    end_ts = value
result = "elapsed %.0fs since first call" % (end_ts - start_ts) if start_ts is not None else "no calls yet"
