history = context.get("conversation_history", [])
by_id = {record.get("call_id"): record for record in history if record.get("call_id")}
handoffs = []
for record in history:
    parent = by_id.get(record.get("parent_call_id"))
    if parent is None:
        continue
    child_speaker = record.get("speaker")
    parent_speaker = parent.get("speaker")
    if child_speaker and parent_speaker and child_speaker != parent_speaker:
        handoffs.append((record.get("call_id"), parent_speaker, child_speaker))
result = handoffs
