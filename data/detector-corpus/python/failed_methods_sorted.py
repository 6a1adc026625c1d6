hist = context["conversation_history"]
failed_methods = []
for r in hist:
    if not r["outcome_summary"].get("ok", False):
        failed_methods.append(r["method_name"])
result = sorted(set(failed_methods))
