from collections import defaultdict

roles = {msg.get("call_id"): msg.get("role") for msg in conversation_history}
tally = defaultdict(lambda: defaultdict(int))
for msg in conversation_history:
    parent = msg.get("parent_call_id")
    if msg.get("role") and parent and roles.get(parent):
        tally[msg["role"]][roles[parent]] += 1
result = {role: dict(counts) for role, counts in tally.items()}
