log = context["conversation_history"]
depths = sorted(set(e["depth"] for e in log))
parts = []
for d in depths:
    frac = [e["depth"] for e in log].count(d) / len(log)
    parts.append("depth %d: %.1f%%" % (d, frac * 100))
result = "; ".join(parts) if parts else "no calls"
