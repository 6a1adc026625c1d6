from itertools import groupby

history = context.get("conversation_history", [])
outcomes = []
for h in history:
    status = (h.get("outcome_summary") or {}).get("ok")
    if h.get("method_name") and isinstance(status, bool):
        outcomes.append((len(h.get("args") or []), status))

outcomes.sort(key=lambda pair: pair[0])
result = []
for arity, group in groupby(outcomes, key=lambda pair: pair[0]):
    flags = [ok for _, ok in group]
    result.append((arity, sum(flags) / len(flags), len(flags)))
