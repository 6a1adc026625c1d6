log = context["conversation_history"]
later_methods = set()
abandoned = []
for entry in reversed(log):
    name = entry.get("method_name") or ""
    if name:
        failed = entry.get("outcome_summary", {}).get("status") != "ok"
        if failed and name not in later_methods:
            abandoned.append(entry)
        later_methods.add(name)
abandoned.reverse()
result = {
    "given_up": [e["call_id"] for e in abandoned],
    "methods": sorted({e["method_name"] for e in abandoned}),
}
