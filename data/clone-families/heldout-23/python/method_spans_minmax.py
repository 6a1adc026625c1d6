from datetime import datetime

history = context.get("conversation_history", [])
bounds = {}
for record in history:
    method = record.get("method_name")
    stamp = record.get("timestamp")
    if method and stamp:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        lo, hi = bounds.get(method, (when, when))
        bounds[method] = (min(lo, when), max(hi, when))
result = {}
for method, (lo, hi) in bounds.items():
    result[method] = (hi - lo).total_seconds()
