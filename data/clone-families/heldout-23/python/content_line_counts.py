line_counts = []
for record in context["conversation_history"]:
    text = record.get("content")
    if not isinstance(text, str):
        continue
    line_counts.append((record.get("call_id"), len(text.splitlines())))
line_counts
