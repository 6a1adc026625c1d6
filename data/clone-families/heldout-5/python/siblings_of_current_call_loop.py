me = context["call_id"]
history = context.get("conversation_history", [])

mine = None
for rec in history:
    if rec.get("call_id") == me:
        mine = rec
        break

siblings = []
if mine is not None:
    parent = mine.get("parent_call_id")
    for rec in history:
        if rec.get("call_id") != me and rec.get("parent_call_id") == parent:
            siblings.append(rec["call_id"])

result = siblings
