from collections import Counter

history = context.get("conversation_history") or []
pairs = {
    (record.get("method_name"), record.get("parent_call_id"))
    for record in history
    if record.get("method_name") and record.get("parent_call_id")
}
result = dict(Counter(method for method, _ in pairs))
