failed = [r for r in conversation_history if not r.get("outcome_summary", {}).get("ok", False)]
types = sorted({r["outcome_summary"]["error_type"] for r in failed})

lines = []
for t in types:
    names = sorted({r["method_name"] for r in failed if r["outcome_summary"]["error_type"] == t})
    lines.append(f"{t} <- {', '.join(names)}")

result = "\n".join(lines)
