import re
from collections import defaultdict

CODE = re.compile(r"\b[45]\d\d\b")

history = context.get("conversation_history", [])
codes = defaultdict(set)
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message") or ""
    codes[record.get("method_name")].update(CODE.findall(message))
result = {method: sorted(found) for method, found in codes.items() if found}
