import re

todo_re = re.compile(r"\btodo\b", re.I)
history = context.get("conversation_history", [])
by_id = {record.get("call_id"): record for record in history}
hits = []
for record in history:
    parent = by_id.get(record.get("parent_call_id")) if record.get("parent_call_id") else None
    grand = by_id.get(parent.get("parent_call_id")) if parent and parent.get("parent_call_id") else None
    if grand and isinstance(grand.get("content"), str) and todo_re.search(grand["content"]):
        hits.append(record.get("call_id"))
hits
