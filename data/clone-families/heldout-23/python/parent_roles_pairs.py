from collections import Counter

role_of = {record.get("call_id"): record.get("role") for record in conversation_history}
pairs = Counter(
    (record.get("role"), role_of.get(record.get("parent_call_id")))
    for record in conversation_history
    if record.get("role") and record.get("parent_call_id") and role_of.get(record.get("parent_call_id"))
)
result = {}
for (child_role, parent_role), count in pairs.items():
    result.setdefault(child_role, {})[parent_role] = count
