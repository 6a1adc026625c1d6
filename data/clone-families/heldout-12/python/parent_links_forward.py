history = context.get("conversation_history", [])
position = {}
for index, record in enumerate(history):
    position.setdefault(record.get("call_id"), index)
forward = []
for index, record in enumerate(history):
    parent = record.get("parent_call_id")
    if parent and parent in position and position[parent] > index:
        forward.append(record.get("call_id"))
result = forward
