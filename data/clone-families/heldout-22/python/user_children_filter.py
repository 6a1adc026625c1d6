log = context["conversation_history"]
user_calls = set(map(lambda entry: entry.get("call_id"), filter(lambda entry: entry.get("role") == "user", log)))
linked = filter(
    lambda entry: entry.get("parent_call_id") and entry.get("parent_call_id") in user_calls, log
)
result = list(
    map(lambda entry: {"call_id": entry.get("call_id"), "parent": entry.get("parent_call_id")}, linked)
)
