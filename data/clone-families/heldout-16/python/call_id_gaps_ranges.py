import re

records = context.get("conversation_history") or []
nums = sorted({int(m.group(1)) for r in records if isinstance(r.get("call_id"), str) for m in [re.search(r"(\d+)$", r["call_id"])] if m})
ranges = []
for low, high in zip(nums, nums[1:]):
    if high - low > 1:
        ranges.append(str(low + 1) if high - low == 2 else f"{low + 1}-{high - 1}")
result = {"missing_ranges": ranges, "seen": len(nums)}
