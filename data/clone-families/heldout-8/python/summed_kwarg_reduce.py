from functools import reduce

field = kwargs.get("key", "timeout")
per_call = []
for turn in context.get("conversation_history") or []:
    kw = turn.get("kwargs")
    if not isinstance(kw, dict) or field not in kw:
        continue
    if kw[field] is None:
        continue
    per_call.append(float(kw[field]))

summed = reduce(lambda acc, v: acc + v, per_call, 0.0)
result = {
    "values": per_call,
    "sum": summed,
    "mean": summed / len(per_call) if per_call else None,
}
