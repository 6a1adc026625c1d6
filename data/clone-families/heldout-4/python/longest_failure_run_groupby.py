from itertools import groupby

entries = conversation_history or []
runs = [
    sum(1 for _ in grp)
    for failed, grp in groupby(entries, key=lambda e: not e["outcome_summary"]["ok"])
    if failed
]
result = {"longest_failure_streak": max(runs, default=0), "failure_runs": len(runs)}
