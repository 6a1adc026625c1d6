history = context.get("conversation_history", [])
by_id = {record.get("call_id"): record for record in history if record.get("call_id")}
handoffs = []
previous = None
for record in history:
    before, previous = previous, record
    if by_id.get(record.get("parent_call_id")) is None or before is None:
        continue
    child_speaker = record.get("speaker")
    previous_speaker = before.get("speaker")
    if child_speaker and previous_speaker and child_speaker != previous_speaker:
        handoffs.append((record.get("call_id"), previous_speaker, child_speaker))
result = handoffs
