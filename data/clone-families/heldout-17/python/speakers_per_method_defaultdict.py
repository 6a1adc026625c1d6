from collections import defaultdict

who_called = defaultdict(set)
for r in conversation_history:
    if r.get("method_name") and r.get("speaker"):
        who_called[r["method_name"]].add(r["speaker"])
who_called
