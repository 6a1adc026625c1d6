from collections import Counter

on_failure = Counter()
on_success = Counter()
for rec in context["conversation_history"]:
    summary = rec.get("outcome_summary")
    if not summary:
        continue
    target = on_success if summary.get("ok") else on_failure
    for key in (rec.get("kwargs") or {}).keys():
        target[key] += 1

suspects = {key: n for key, n in on_failure.items() if on_success[key] == 0}
result = dict(sorted(suspects.items(), key=lambda kv: (-kv[1], kv[0])))
