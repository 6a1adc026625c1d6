import re
from collections import defaultdict

per_method = defaultdict(list)
for step in conversation_history:
    if not step.get("method_name"):
        continue
    if any(isinstance(x, str) and re.fullmatch(r"\s*-?\d+(?:\.\d+)?\s*", x) for x in step.get("args") or ()):
        per_method[step["method_name"]].append(step.get("call_id"))
dict(per_method)
