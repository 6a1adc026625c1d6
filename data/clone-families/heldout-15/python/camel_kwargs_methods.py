import re
from collections import defaultdict

history = context.get("conversation_history") or []
by_method = defaultdict(list)
for rec in history:
    kwargs = rec.get("kwargs")
    if not kwargs or not isinstance(kwargs, dict):
        continue
    if any(re.search("[a-z][A-Z]", key) for key in map(str, kwargs.keys())):
        by_method[rec.get("method_name") or "(none)"].append(rec.get("call_id"))
result = dict(by_method)
