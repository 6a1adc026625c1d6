history = context.get("conversation_history", [])
if not history:
    result = []
else:
    undated = []
    for record in history:
        if not record.get("timestamp"):
            undated.append({"call": record.get("call_id"), "role": record.get("role"), "speaker": record.get("speaker")})
    result = undated
