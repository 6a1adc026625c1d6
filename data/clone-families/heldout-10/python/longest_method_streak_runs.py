runs = []
for step in context["conversation_history"]:
    method = step.get("method_name") or ""
    if method == "":
        continue
    if runs and runs[-1][0] == method:
        runs[-1][1] += 1
    else:
        runs.append([method, 1])
ranked = sorted(runs, key=lambda r: -r[1])
{"longest_run": ranked[0] if ranked else None, "runs": len(runs)}
