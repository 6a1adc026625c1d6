import math

wanted = kwargs.get("key") or "timeout"
opts = map(lambda r: r.get("kwargs", {}) or {}, conversation_history)
numbers = list(filter(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), map(lambda o: o.get(wanted), opts)))
result = f"{wanted}: {math.fsum(numbers):g} across {len(numbers)} calls"
