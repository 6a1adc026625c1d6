begin = kwargs.get("start_id")
finish = kwargs.get("end_id")

inside = False
closed = False
collected = []
for entry in conversation_history:
    cid = entry.get("call_id")
    if inside and cid == finish:
        closed = True
        break
    if inside:
        name = entry.get("method_name")
        if isinstance(name, str) and name:
            collected.append(name)
    elif cid == begin:
        inside = True

result = collected if closed else []
