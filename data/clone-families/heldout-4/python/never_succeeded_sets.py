history = context.get("conversation_history", [])

called = set()
succeeded = set()
for rec in history:
    called.add(rec["method"])
    if rec["outcome_summary"]["ok"]:
        succeeded.add(rec["method"])

result = sorted(called - succeeded)
