turns = []
for msg in context["conversation_history"]:
    if msg.get("role") == "user":
        turns.append([msg])
    elif turns:
        turns[-1].append(msg)
result = [turn[0].get("call_id") for turn in turns if turn[-1].get("role") == "tool"]
