def render(conversation_history):
    return "\n".join(line.strip() for line in conversation_history)


result = render(["  hello ", " world "])
