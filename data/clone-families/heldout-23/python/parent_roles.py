from collections import Counter

role_of = {record.get("call_id"): record.get("role") for record in conversation_history}
result = {}
for record in conversation_history:
    child_role = record.get("role")
    parent_role = role_of.get(record.get("parent_call_id"))
    if child_role and parent_role and record.get("parent_call_id"):
        result.setdefault(child_role, Counter())[parent_role] += 1
result = {role: dict(counts) for role, counts in result.items()}
