history = context.get("conversation_history") or []
if not history:
    result = []
else:
    outputs = [r for r in history if r.get("role") == "tool" and isinstance(r.get("content"), str)]
    tails = []
    for rec in outputs[-4:]:
        lines = rec["content"].splitlines()
        tails.append({"call": rec.get("call_id"), "method": rec.get("method_name"), "last_line": lines[-1] if lines else ""})
    result = tails
