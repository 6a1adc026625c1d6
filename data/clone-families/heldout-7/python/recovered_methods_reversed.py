records = context.get("conversation_history", [])
ok_later = set()
healed = set()
for rec in reversed(records):
    meth = rec.get("method_name") or ""
    if not meth:
        continue
    if (rec.get("outcome_summary") or {}).get("ok"):
        ok_later.add(meth)
    elif meth in ok_later:
        healed.add(meth)

result = {"recovered": sorted(healed), "count": len(healed)}
