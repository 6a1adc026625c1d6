from collections import defaultdict

shapes = defaultdict(list)
for call in context["conversation_history"]:
    name = call.get("method_name") or ""
    if not name:
        continue
    shape = "(" + ", ".join(type(v).__name__ for v in call.get("args") or []) + ")"
    if shape not in shapes[name]:
        shapes[name].append(shape)
result = {name: sorted(found) for name, found in shapes.items()}
