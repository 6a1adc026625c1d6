from collections import Counter

history = context["conversation_history"]
usage = {}
for rec in history:
    method = rec.get("method_name")
    args = rec.get("args")
    if not method or not isinstance(args, list):
        continue
    bucket = usage.setdefault(method, Counter())
    bucket.update(a for a in args if isinstance(a, str))

result = {}
for method, counter in usage.items():
    by_key = {}
    for text, n in counter.items():
        by_key.setdefault(text.lower(), {})[text] = n
    clashes = [forms for forms in by_key.values() if len(forms) > 1]
    if clashes:
        result[method] = clashes
