last_seen = {}
for msg in conversation_history:
    speaker_role = msg.get("role")
    if speaker_role and isinstance(msg.get("content"), str):
        last_seen[speaker_role] = (msg.get("call_id"), msg["content"])
result = last_seen
