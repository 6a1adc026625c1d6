def text_len(entry):
    text = entry.get("content")
    if text is None:
        return 0
    return len(text)


hist = conversation_history or []
start = max(len(hist) - 8, 0)
lengths = list(map(text_len, hist[start:]))
result = f"last {len(lengths)} messages use {sum(lengths)} chars"
