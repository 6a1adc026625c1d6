from collections import deque

window = deque(maxlen=kwargs.get("n", 3))
for item in conversation_history:
    if item.get("speaker") == "user":
        window.append(item.get("content", ""))

result = "\n---\n".join(window)
