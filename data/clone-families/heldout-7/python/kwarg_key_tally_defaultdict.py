from collections import defaultdict

uses = defaultdict(int)
methods_using = defaultdict(set)
for step in conversation_history:
    kw = step.get("kwargs")
    if not isinstance(kw, dict):
        continue
    for name in kw:
        uses[name] += 1
        methods_using[name].add(step.get("method_name"))

result = {
    name: {"calls": uses[name], "methods": sorted(m for m in methods_using[name] if m)}
    for name in sorted(uses)
}
