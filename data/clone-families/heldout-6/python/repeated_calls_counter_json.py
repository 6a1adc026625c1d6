import json
from collections import Counter

signatures = Counter(
    json.dumps([r["method_name"], r.get("args", [])], sort_keys=True)
    for r in context["conversation_history"]
    if r.get("method_name")
)
result = {
    "repeated_calls": sum(n - 1 for n in signatures.values()),
    "unique_calls": len(signatures),
}
