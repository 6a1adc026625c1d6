from collections import defaultdict

log = context["conversation_history"]
returned = defaultdict(set)
ok_calls = 0
for entry in log:
    name = entry.get("method_name") or ""
    summary = entry.get("outcome_summary") or {}
    if name == "" or summary.get("status") != "ok":
        continue
    ok_calls += 1
    vc = summary.get("value_class")
    if vc:
        returned[name].add(vc)
result = {
    "return_types": {name: sorted(vcs) for name, vcs in sorted(returned.items())},
    "successful_calls": ok_calls,
}
