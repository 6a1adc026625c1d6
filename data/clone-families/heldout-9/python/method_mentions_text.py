def mentions(name, records):
    return len([r for r in records if name in (r.get("content") or "")])

tools_used = sorted(set(r["method_name"] for r in conversation_history if r.get("method_name")))
report = [f"{t}: mentioned in {mentions(t, conversation_history)} record(s)" for t in tools_used]
result = "\n".join(report) if report else "no methods called"
