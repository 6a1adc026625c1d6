def arg_count(rec):
    args = rec.get("args")
    return len(args) if isinstance(args, (list, tuple)) else 0


stats = {}
for rec in conversation_history:
    name = rec.get("method_name")
    if name is None:
        continue
    s = stats.setdefault(name, [0, 0])
    s[0] += arg_count(rec)
    s[1] += 1

lines = [f"{name}: {total / n:.2f} args/call over {n} calls" for name, (total, n) in sorted(stats.items())]
result = "\n".join(lines) if lines else "no method calls"
