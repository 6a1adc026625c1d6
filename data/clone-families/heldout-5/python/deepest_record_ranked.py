ranked = sorted(
    enumerate(conversation_history),
    key=lambda p: (-p[1].get("depth", 0), p[0]),
)
result = (ranked[0][1]["call_id"], ranked[0][1]["depth"]) if ranked else ("", -1)
