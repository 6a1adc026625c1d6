cut = next(
    (i for i in range(len(conversation_history) - 1, -1, -1) if conversation_history[i].get("role") == "user"),
    None,
)


def methods_in(records):
    return {r["method_name"] for r in records if r.get("method_name")}


gone = []
if cut is not None:
    gone = sorted(methods_in(conversation_history[:cut]) - methods_in(conversation_history[cut:]))
"Tools not used since the last user message: " + (", ".join(gone) if gone else "none")
