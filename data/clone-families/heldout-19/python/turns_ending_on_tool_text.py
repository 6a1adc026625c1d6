history = conversation_history
starts = [i for i, r in enumerate(history) if r.get("role") == "user"]
ends = starts[1:] + [len(history)]
dangling = [history[s].get("call_id") for s, e in zip(starts, ends) if history[e - 1].get("role") == "tool"]
if dangling:
    summary = f"{len(dangling)} of {len(starts)} user turns end on a tool result: " + ", ".join(map(str, dangling))
else:
    summary = f"None of the {len(starts)} user turns ends on a tool result."
summary
