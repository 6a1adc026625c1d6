def method_calls(history):
    for rec in history:
        if rec.get("method_name"):
            yield rec["call_id"], rec["method_name"]


history = context.get("conversation_history") or []
prev2 = prev1 = None
lines = []
for cid, name in method_calls(history):
    if prev2 is not None and name == prev2 and name != prev1:
        lines.append(f"{cid}: back to {name} after {prev1}")
    prev2, prev1 = prev1, name
"\n".join(lines) or "no back-and-forth between methods"
