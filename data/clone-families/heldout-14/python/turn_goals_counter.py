from collections import Counter, OrderedDict

history = context["conversation_history"]
turns = OrderedDict()
owner = None
for rec in history:
    if rec.get("role") == "user":
        owner = rec.get("call_id")
        turns[owner] = Counter()
    elif owner is None:
        continue
    if rec.get("goal"):
        turns[owner][rec["goal"]] += 1

result = [{"turn": t, "goals": dict(c)} for t, c in turns.items() if c]
