rows = ["| call | method | ok |", "| --- | --- | --- |"]
for r in context["conversation_history"][-8:]:
    ok = "yes" if r["outcome_summary"].get("ok") else "no"
    rows.append(f"| {r['call_id']} | {r['method_name']} | {ok} |")
result = "\n".join(rows)
