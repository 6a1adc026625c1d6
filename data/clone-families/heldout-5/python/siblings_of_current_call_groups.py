from collections import defaultdict

hist = context.get("conversation_history") or []
children = defaultdict(list)
parent_of = {}
for h in hist:
    children[h.get("parent_call_id")].append(h.get("call_id"))
    parent_of[h.get("call_id")] = h.get("parent_call_id")

this_call = context["call_id"]
if this_call not in parent_of:
    result = []
else:
    shared = parent_of[this_call]
    result = [(c, shared) for c in children[shared] if c != this_call]
