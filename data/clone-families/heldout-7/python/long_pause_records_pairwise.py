from datetime import datetime
from itertools import pairwise


def ts(record):
    return datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00")).timestamp()


history = context["conversation_history"]
window = kwargs.get("seconds", 600)
[(b["call_id"], int(ts(b) - ts(a))) for a, b in pairwise(history) if ts(b) - ts(a) > window]
