import re

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
turns = context.get("conversation_history") or []
found = [
    (turn.get("call_id"), SNAKE.findall(turn["content"]))
    for turn in turns
    if turn.get("role") == "user" and isinstance(turn.get("content"), str)
]
result = [{"call_id": cid, "identifiers": names} for cid, names in found if names]
