history = context.get("conversation_history") or []
rows = []
current = None
for item in history:
    if item.get("role") == "user":
        current = {"turn": len(rows) + 1, "user_call_id": item.get("call_id"), "last": item}
        rows.append(current)
    elif current is not None:
        current["last"] = item
result = [
    {"turn": row["turn"], "user_call_id": row["user_call_id"], "last_tool_call": row["last"].get("call_id")}
    for row in rows
    if row["last"].get("role") == "tool"
]
