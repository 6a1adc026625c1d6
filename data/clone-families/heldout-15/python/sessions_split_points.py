from datetime import datetime


def epoch(rec):
    return datetime.fromisoformat(rec["timestamp"].replace("Z", "+00:00")).timestamp()


records = context["conversation_history"]
times = [epoch(r) for r in records]
cuts = [0] + [i for i in range(1, len(times)) if times[i] - times[i - 1] > 600] + [len(times)]
spans = []
for lo, hi in zip(cuts, cuts[1:]):
    if lo < hi:
        spans.append((records[lo].get("call_id"), hi - lo, times[hi - 1] - times[lo]))
result = spans
