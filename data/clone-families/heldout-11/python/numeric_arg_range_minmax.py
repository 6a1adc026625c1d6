records = context["conversation_history"]
numbers_by_method = {}
for rec in records:
    name = rec.get("method_name") or ""
    values = [a for a in (rec.get("args") or []) if type(a) in (int, float)]
    if name and values:
        numbers_by_method.setdefault(name, []).extend(values)

result = {
    name: (min(values), max(values))
    for name, values in sorted(numbers_by_method.items())
}
