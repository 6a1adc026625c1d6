count = 0
size = 0
for msg in reversed(conversation_history):
    if count == 8:
        break
    count += 1
    try:
        size += len(msg["content"])
    except (KeyError, TypeError):
        pass
approx_tokens = size // 4
result = {"chars": size, "approx_tokens": approx_tokens}
