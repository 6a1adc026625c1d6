import datetime as dt


def parse(t):
    if isinstance(t, str):
        return dt.datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp()
    return float(t)


stamps = [parse(r["timestamp"]) for r in context["conversation_history"] if r.get("timestamp") is not None]
if stamps:
    span = max(stamps) - min(stamps)
    result = {"seconds": span, "minutes": round(span / 60, 1), "calls": len(stamps)}
else:
    result = {"seconds": None, "minutes": None, "calls": 0}
