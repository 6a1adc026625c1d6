import re

history = context["conversation_history"]
mentions = [r for r in history if re.search(r"invoice\s+#?\d+", str(r["args"]))]
by_method = {}
for r in mentions:
    by_method.setdefault(r["method_name"], []).append(r["call_id"])
digest = "; ".join(f"{m}: {', '.join(ids)}" for m, ids in by_method.items())
result = digest
