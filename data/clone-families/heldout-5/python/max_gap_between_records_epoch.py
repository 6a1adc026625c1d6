import calendar
import time

history = conversation_history or []
epochs = [calendar.timegm(time.strptime(h["timestamp"], "%Y-%m-%dT%H:%M:%SZ")) for h in history]

if len(epochs) < 2:
    result = "not enough records to measure a gap"
else:
    widest = max(b - a for a, b in zip(epochs, epochs[1:]))
    result = f"longest pause: {widest} s ({widest / 60:.1f} min)"
