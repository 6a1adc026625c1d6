history = context.get("conversation_history", [])

deepest = None
for rec in history:
    if deepest is None or rec.get("depth", 0) > deepest.get("depth", 0):
        deepest = rec

if deepest is None:
    result = None
else:
    result = {
        "call_id": deepest["call_id"],
        "depth": deepest["depth"],
        "method": deepest["method_name"],
    }
