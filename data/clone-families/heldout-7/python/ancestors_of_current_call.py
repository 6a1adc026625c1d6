history = context.get("conversation_history", [])
current_id = context.get("call_id")

parent_of = {}
for record in history:
    parent_of[record.get("call_id")] = record.get("parent_call_id")

ancestors = []
seen = set()
parent = parent_of.get(current_id)
while parent is not None and parent not in seen:
    ancestors.append(parent)
    seen.add(parent)
    parent = parent_of.get(parent)

result = ancestors
