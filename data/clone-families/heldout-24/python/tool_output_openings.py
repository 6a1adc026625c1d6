history = context["conversation_history"]
openings = []
for record in history:
    text = record.get("content")
    if record.get("role") != "tool" or not isinstance(text, str):
        continue
    openings.append([record.get("call_id"), text[:40]])
openings
