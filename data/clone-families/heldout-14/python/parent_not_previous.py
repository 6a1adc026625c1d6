history = context.get("conversation_history", [])
position = {}
for index, record in enumerate(history):
    position[record.get("call_id")] = index

jumps = []
for index, record in enumerate(history):
    parent = record.get("parent_call_id")
    if not parent or parent not in position:
        continue
    if position[parent] != index - 1:
        jumps.append(record.get("call_id"))
result = jumps
