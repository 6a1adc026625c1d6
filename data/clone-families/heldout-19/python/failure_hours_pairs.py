from itertools import groupby


def hour_and_ok(record):
    outcome = record.get("outcome_summary") or {}
    return int(record["timestamp"][11:13]), outcome["ok"]


finished = sorted(
    hour_and_ok(r)
    for r in conversation_history
    if r.get("timestamp") and isinstance((r.get("outcome_summary") or {}).get("ok"), bool)
)
pairs = []
for hour, group in groupby(finished, key=lambda x: x[0]):
    oks = [ok for _, ok in group]
    pairs.append((hour, oks.count(False) / len(oks)))
pairs
