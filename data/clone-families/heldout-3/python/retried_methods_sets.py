failed_before = set()
retried = set()
for rec in conversation_history:
    method = rec.get("method_name")
    if method in failed_before:
        retried.add(method)
    if not rec.get("outcome_summary", {}).get("ok", True):
        failed_before.add(method)
result = sorted(retried)
