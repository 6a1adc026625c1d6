from collections import Counter

records = context["conversation_history"]
attempts = Counter(r["need"] for r in records if r.get("need"))
satisfied = {r["need"] for r in records if r.get("need") and (r.get("outcome_summary") or {}).get("ok") is True}
result = {need: n for need, n in attempts.most_common() if need not in satisfied}
