records = context.get("conversation_history") or []
answers = []
for pos, rec in enumerate(records):
    if rec.get("role") != "user":
        continue
    first_output = None
    for nxt in records[pos + 1:]:
        if nxt.get("role") == "user":
            break
        if nxt.get("role") == "tool":
            first_output = nxt.get("content")
            break
    answers.append({"message": rec.get("call_id"), "first_tool_result": first_output})
result = answers
