from collections import defaultdict

calls = context.get("conversation_history") or []
callers = defaultdict(set)
for call in calls:
    name = call.get("method_name")
    caller = call.get("parent_call_id")
    if name and caller:
        callers[name].add(caller)
result = {name: len(seen) for name, seen in callers.items()}
