history = context.get("conversation_history", [])
longest = {}
for record in history:
    if record.get("role") != "tool":
        continue
    content = record.get("content")
    method = record.get("method_name")
    if not method or not isinstance(content, str):
        continue
    best = longest.get(method)
    if best is None or len(content) > best["chars"]:
        longest[method] = {"call_id": record.get("call_id"), "chars": len(content)}
result = longest
