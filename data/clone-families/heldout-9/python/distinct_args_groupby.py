from itertools import groupby

def method_of(r):
    return r.get("method_name") or ""

calls = sorted((r for r in conversation_history if method_of(r)), key=method_of)
lines = []
for method, group in groupby(calls, key=method_of):
    group = list(group)
    unique = {repr(list(r["args"] or [])) for r in group}
    lines.append(f"{method}: {len(unique)} distinct argument lists over {len(group)} calls")
result = "\n".join(lines) if lines else "no tool calls"
