def is_number(value):
    return isinstance(value, (int, float)) and value is not True and value is not False


def numeric_args(record):
    return [v for v in (record.get("args") or []) if is_number(v)]


history = context.get("conversation_history", [])
methods = sorted({r["method_name"] for r in history if r.get("method_name")})
out = []
for m in methods:
    pool = [v for r in history if r.get("method_name") == m for v in numeric_args(r)]
    if pool:
        out.append((m, min(pool), max(pool)))
result = out
