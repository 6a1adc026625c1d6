hist = context.get("conversation_history", [])
current = next(
    (m["goal"] for m in reversed(hist) if m.get("speaker") == "user" and m.get("goal")),
    None,
)
result = {"goal": current, "has_goal": current is not None}
