known = [m.get("call_id") for m in conversation_history]
lines = []
for m in conversation_history:
    c = m.get("content")
    if not isinstance(c, str) or "call_" not in c:
        continue
    refs = [k for k in known if k and k != m.get("call_id") and k in c]
    if refs:
        lines.append(f"{m.get('call_id')} ({m.get('role')}) mentions {', '.join(refs)}")
"\n".join(lines) if lines else "No record mentions another call id."
