# Step 2: Design Interface
# - Returns: success ratio per method plus how many methods were seen

records = context["conversation_history"]
seen = {}
for rec in records:
    outcome = rec.get("outcome_summary") or {}
    ok_count, total = seen.get(rec["method_name"], (0, 0))
    seen[rec["method_name"]] = (ok_count + (1 if outcome.get("ok") else 0), total + 1)

rates = {k: round(v[0] / v[1], 2) for k, v in seen.items()}
result = {"rates": rates, "methods": len(rates)}
