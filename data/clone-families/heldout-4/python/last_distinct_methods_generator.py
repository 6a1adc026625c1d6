from itertools import islice


def distinct_newest_first(records):
    seen = set()
    for r in reversed(records):
        m = r["method"]
        if m in seen:
            continue
        seen.add(m)
        yield m


calls = context.get("conversation_history") or []
latest = list(islice(distinct_newest_first(calls), 3))
result = [{"rank": i + 1, "method": m} for i, m in enumerate(latest)]
