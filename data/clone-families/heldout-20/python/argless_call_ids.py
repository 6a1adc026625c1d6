history = context["conversation_history"]
argless = []
for record in history:
    method = record.get("method_name")
    if method and not record.get("args"):
        argless.append(record.get("call_id"))
result = argless
