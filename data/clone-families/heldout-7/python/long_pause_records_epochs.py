import calendar
import time

cutoff = int(kwargs.get("seconds") or 600)
epochs = [calendar.timegm(time.strptime(t["timestamp"], "%Y-%m-%dT%H:%M:%SZ")) for t in conversation_history]
woke = [conversation_history[k]["call_id"] for k in range(1, len(epochs)) if epochs[k] - epochs[k - 1] > cutoff]
result = f"{len(woke)} pauses over {cutoff}s; resumed at: " + (", ".join(woke) if woke else "-")
