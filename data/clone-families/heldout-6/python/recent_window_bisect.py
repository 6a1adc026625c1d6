import bisect
import calendar
from datetime import datetime

window = kwargs.get("seconds", 300)
epochs = [
    calendar.timegm(datetime.strptime(e["timestamp"], "%Y-%m-%dT%H:%M:%SZ").timetuple())
    for e in conversation_history
]
if epochs:
    start = bisect.bisect_left(epochs, epochs[-1] - window)
    result = {"count": len(epochs) - start, "first_in_window": conversation_history[start]["call_id"]}
else:
    result = {"count": 0, "first_in_window": None}
