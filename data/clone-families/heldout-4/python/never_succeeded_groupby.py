from itertools import groupby
from operator import itemgetter

log = sorted(context.get("conversation_history", []), key=itemgetter("method"))
stuck = []
for method, group in groupby(log, key=itemgetter("method")):
    statuses = [g["outcome_summary"]["ok"] for g in group]
    if all(s is False for s in statuses):
        stuck.append((method, len(statuses)))

result = [{"method": m, "attempts": n} for m, n in stuck]
