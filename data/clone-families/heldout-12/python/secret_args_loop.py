history = context.get("conversation_history") or []
memory = context.get("memory") or {}
found = []
for item in history:
    suspicious = False
    for arg in item.get("args") or []:
        if type(arg) is str and (arg.startswith("sk-") or arg.startswith("ghp_")):
            suspicious = True
    kw = item.get("kwargs") or {}
    for key, val in kw.items():
        name = str(key).lower()
        if "token" in name or "secret" in name or "password" in name:
            suspicious = True
        elif type(val) is str and (val.startswith("sk-") or val.startswith("ghp_")):
            suspicious = True
    if suspicious:
        found.append(item.get("call_id"))
result = {"calls": found, "total": len(found), "goals_in_memory": len(memory.get("goals") or [])}
