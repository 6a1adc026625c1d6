failed = set()
succeeded = set()
for rec in conversation_history:
    method = rec.get("method_name")
    if not rec.get("outcome_summary", {}).get("ok", True):
        failed.add(method)
    else:
        succeeded.add(method)
result = sorted(failed)
