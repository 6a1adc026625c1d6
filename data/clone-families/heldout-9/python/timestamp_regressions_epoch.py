import calendar
import time
from itertools import pairwise

entries = context.get("conversation_history") or []
epoch = lambda e: calendar.timegm(time.strptime(e["timestamp"], "%Y-%m-%dT%H:%M:%SZ"))
[(b["call_id"], a["call_id"]) for a, b in pairwise(entries) if epoch(b) - epoch(a) < 0]
