try:
    records = context["conversation_history"]
except (KeyError, TypeError):
    records = []
pending_failures = []
retries = []
for r in records:
    name = r.get("method_name")
    if name in pending_failures and name not in retries:
        retries.append(name)
    ok = r.get("outcome_summary", {}).get("ok")
    if ok is False:
        pending_failures.append(name)
retries.sort()
result = "Retried after failure: " + (", ".join(retries) if retries else "none")
