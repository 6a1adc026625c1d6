from collections import deque

count = kwargs.get("n", 3)
window = deque(maxlen=count)
for h in conversation_history:
    if h.get("speaker") == "user":
        window.append(h["content"])
result = list(window)
