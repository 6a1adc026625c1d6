from collections import defaultdict
import math

entries = context.get("conversation_history") or []
weights = defaultdict(float)
unit = 1.0 / len(entries) if entries else 0.0
for entry in entries:
    weights[entry["depth"]] += unit

result = {
    "share_by_depth": {str(k): round(v, 3) for k, v in sorted(weights.items())},
    "max_depth": max(weights) if weights else None,
    "entropy_bits": round(-sum(p * math.log2(p) for p in weights.values() if p > 0), 3),
}
