q_text = kwargs.get("question") or (args[0] if args else None)
log_line = "lookup:" + str(q_text)[:40]
idx = len(conversation_history) - 1
answer = None
while idx >= 0:
    entry = conversation_history[idx]
    idx -= 1
    if not entry.get("args"):
        continue
    if entry["args"][0] != q_text:
        continue
    if not entry.get("outcome_summary", {}).get("ok"):
        continue
    answer = entry["outcome_summary"].get("summary")
    break
result = {"answer": answer, "log": log_line}
