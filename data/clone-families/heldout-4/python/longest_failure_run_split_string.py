import re

log = context.get("conversation_history") or []
# encode outcomes as a string: '1' ok, '0' failed, then measure the longest block of zeros
pattern = "".join("1" if r["outcome_summary"]["ok"] else "0" for r in log)
blocks = re.findall(r"0+", pattern)
streak = max((len(b) for b in blocks), default=0)
result = {"max_consecutive_failures": streak, "total_calls": len(log)}
