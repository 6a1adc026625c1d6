from collections import defaultdict
from numbers import Number

memory = context.get("memory") or {}
seen = defaultdict(list)
for entry in conversation_history:
    method = entry.get("method_name")
    if not method:
        continue
    args = entry.get("args")
    if not isinstance(args, list):
        continue
    seen[method] += [x for x in args if isinstance(x, Number) and not isinstance(x, bool)]

summary = {}
for method, nums in seen.items():
    if not nums:
        continue
    summary[method] = {"lowest": min(nums), "highest": max(nums), "spread": max(nums) - min(nums), "n": len(nums)}
result = {"numeric_arg_ranges": summary, "memory_keys": sorted(memory) if isinstance(memory, dict) else []}
