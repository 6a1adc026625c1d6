import statistics
from datetime import datetime

history = context["conversation_history"]
failures = [
    (h["outcome_summary"]["error_type"], datetime.fromisoformat(h["timestamp"].replace("Z", "+00:00")))
    for h in history
    if (h.get("outcome_summary") or {}).get("ok") is False
    and (h.get("outcome_summary") or {}).get("error_type")
]

report = []
for t in sorted({kind for kind, _ in failures}):
    moments = [when for kind, when in failures if kind == t]
    if len(moments) >= 2:
        report.append(
            {
                "error_type": t,
                "mean_gap_s": statistics.mean((b - a).total_seconds() for a, b in zip(moments, moments[1:])),
                "first": moments[0].isoformat(),
            }
        )
result = report
