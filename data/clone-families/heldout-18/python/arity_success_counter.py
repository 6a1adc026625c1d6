from collections import Counter

attempts, successes = Counter(), Counter()
for rec in conversation_history:
    if not rec.get("method_name"):
        continue
    ok = (rec.get("outcome_summary") or {}).get("ok")
    if ok is True or ok is False:
        width = len(rec.get("args") or [])
        attempts[width] += 1
        successes[width] += ok
{width: successes[width] / attempts[width] for width in sorted(attempts)}
