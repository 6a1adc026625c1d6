from itertools import groupby

history = context.get("conversation_history") or []
pairs = sorted(
    {
        (h["method_name"], h["outcome_summary"]["error_type"])
        for h in history
        if h.get("method_name")
        and (h.get("outcome_summary") or {}).get("ok") is False
        and h["outcome_summary"].get("error_type")
    }
)
result = {}
for method, grp in groupby(pairs, key=lambda p: p[0]):
    types = [t for _, t in grp]
    if len(types) >= 2:
        result[method] = types
