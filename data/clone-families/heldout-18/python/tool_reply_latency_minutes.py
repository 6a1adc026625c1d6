from datetime import datetime

stamps = [
    datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) if r.get("timestamp") else None
    for r in conversation_history
]
reply_positions = [i for i, r in enumerate(conversation_history) if r.get("role") == "assistant" and stamps[i]]

waits = {}
for i, r in enumerate(conversation_history):
    if r.get("role") != "tool" or stamps[i] is None:
        continue
    following = next((j for j in reply_positions if j > i), None)
    if following is not None:
        waits[r.get("call_id")] = round((stamps[following] - stamps[i]).total_seconds() / 60, 2)
result = waits
