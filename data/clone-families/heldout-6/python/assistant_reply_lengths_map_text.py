assistant_turns = filter(lambda t: t.get("role") == "assistant", conversation_history)
sizes = list(map(lambda t: len(str(t.get("content") or "")), assistant_turns))
result = "assistant reply lengths: " + ",".join(str(s) for s in sizes)
