history = context.get("conversation_history") or []

index_of = {}
for position, item in enumerate(history):
    index_of.setdefault(item.get("call_id"), position)

broken = []
for item in history:
    link = item.get("parent_call_id")
    if not link:
        continue
    if index_of.get(link) is None:
        broken.append(item["call_id"])

result = {"count": len(broken), "call_ids": broken, "checked": len(history)}
