from itertools import combinations

history = context.get("conversation_history") or []
clashes = {}
for rec in history:
    kw = rec.get("kwargs") or {}
    if not rec.get("method_name") or not isinstance(kw, dict):
        continue
    strings = [(k, v) for k, v in kw.items() if isinstance(v, str) and v != ""]
    pairs = [(a, b, va) for (a, va), (b, vb) in combinations(strings, 2) if va == vb]
    if pairs:
        clashes[rec.get("call_id")] = pairs
result = clashes
