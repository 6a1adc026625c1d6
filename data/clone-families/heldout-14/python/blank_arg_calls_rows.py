history = context["conversation_history"]
rows = {}
for index, entry in enumerate(history):
    method = entry.get("method_name")
    args = entry.get("args")
    if not method or not args:
        continue
    blanks = [i for i, a in enumerate(args) if isinstance(a, str) and a.strip() == ""]
    if blanks:
        row = rows.setdefault(method, {"method": method, "calls": 0, "positions": []})
        row["calls"] += 1
        row["positions"].append(index)
result = sorted(rows.values(), key=lambda r: -r["calls"])
