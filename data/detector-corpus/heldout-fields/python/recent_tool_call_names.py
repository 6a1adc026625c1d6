messages = context["conversation_history"]
names = []
for m in messages[-6:]:
    for tc in m.get("tool_calls") or []:
        names.append(tc["function"]["name"])
result = names
