from itertools import accumulate, groupby

history = context.get("conversation_history", [])
turn_index = list(accumulate(1 if r.get("role") == "user" else 0 for r in history))
labelled = [(t, r) for t, r in zip(turn_index, history) if t > 0]
result = {}
for _, group in groupby(labelled, key=lambda pair: pair[0]):
    records = [r for _, r in group]
    kinds = []
    for r in records:
        out = r.get("outcome_summary") or {}
        kind = out.get("error_type")
        if out.get("ok") is False and kind and kind not in kinds:
            kinds.append(kind)
    if kinds:
        result[records[0].get("call_id")] = kinds
