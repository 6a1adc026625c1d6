def parent_method(record, lookup):
    parent = lookup.get(record.get("parent_call_id") or "")
    return parent.get("method_name") if parent else None


lookup = {m["call_id"]: m for m in conversation_history if m.get("call_id")}
tally = {}
for m in conversation_history:
    if m.get("outcome_summary") and m["outcome_summary"].get("ok") is False:
        name = parent_method(m, lookup)
        if name:
            tally[name] = tally.get(name, 0) + 1
lines = [f"{name}: {n} failed child call{'s' if n != 1 else ''}" for name, n in sorted(tally.items())]
"\n".join(lines) or "No failed call has a parent with a method."
