calls = context["conversation_history"]
outcomes = {}
for c in calls:
    name = c.get("method_name")
    if name:
        outcomes.setdefault(name, []).append(bool((c.get("outcome_summary") or {}).get("ok")))

result = []
for name in sorted(outcomes):
    seq = outcomes[name]
    if False in seq and True in seq[seq.index(False):]:
        result.append({"method": name, "calls": len(seq), "failures": seq.count(False)})
