from itertools import groupby

records = context.get("conversation_history") or []
pairs = sorted(
    {
        (r["method_name"], a.casefold(), a)
        for r in records
        if r.get("method_name")
        for a in (r.get("args") or [])
        if isinstance(a, str)
    }
)

result = []
for (method, folded), grp in groupby(pairs, key=lambda p: p[:2]):
    forms = [p[2] for p in grp]
    if len(forms) > 1:
        result.append({"method": method, "value": folded, "spellings": forms})
