records = context.get("conversation_history", [])
out = []
for rec in records:
    status = rec["outcome_summary"]["status"]
    out.append(f"{rec['timestamp']} {rec['speaker']}.{rec['method_name']} -> {status}")
result = "\n".join(out)
