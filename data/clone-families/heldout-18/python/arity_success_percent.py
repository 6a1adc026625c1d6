from collections import defaultdict

tally = defaultdict(lambda: [0, 0])
for call in context["conversation_history"]:
    summary = call.get("outcome_summary") or {}
    if not call.get("method_name") or summary.get("ok") is None:
        continue
    n_args = len(call.get("args") or [])
    tally[n_args][1] += 1
    if summary["ok"] is True:
        tally[n_args][0] += 1

result = [
    {"arg_count": n, "calls": total, "success_pct": round(100.0 * ok / total, 1)}
    for n, (ok, total) in sorted(tally.items())
]
