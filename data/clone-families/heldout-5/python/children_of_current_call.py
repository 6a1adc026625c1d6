me = context["call_id"]
history = context.get("conversation_history", [])

mine = None
for rec in history:
    if rec.get("call_id") == me:
        mine = rec
        break

children = []
if mine is not None:
    for rec in history:
        if rec.get("parent_call_id") == me:
            children.append(rec["call_id"])

result = children
