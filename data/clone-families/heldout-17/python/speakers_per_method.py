history = context.get("conversation_history", [])
speakers = {}
for record in history:
    method = record.get("method_name")
    speaker = record.get("speaker")
    if not method or not speaker:
        continue
    speakers.setdefault(method, set()).add(speaker)
result = {method: sorted(names) for method, names in speakers.items()}
