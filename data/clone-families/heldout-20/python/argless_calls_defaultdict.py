from collections import defaultdict

records = context["conversation_history"]
bare_calls = defaultdict(int)
for rec in records:
    name = rec.get("method_name")
    if name and not rec.get("args"):
        bare_calls[name] += 1
result = dict(bare_calls)
