records = context.get("conversation_history") or []
seen = {}
for r in records:
    s = r.get("outcome_summary")
    if not isinstance(s, dict) or not s.get("ok"):
        continue
    m, vc = r.get("method_name"), s.get("value_class")
    if m and vc and vc not in seen.setdefault(m, []):
        seen[m].append(vc)
[
    {"method": m, "value_classes": sorted(vcs), "polymorphic": len(vcs) > 1}
    for m, vcs in seen.items()
]
