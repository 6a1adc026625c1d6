from itertools import groupby

stamped = [r for r in conversation_history if r.get("timestamp")]
runs = [(day, list(group)) for day, group in groupby(stamped, key=lambda r: r["timestamp"][:10])]
lines = [f"{group[0].get('call_id')} is the first record on {day}" for day, group in runs[1:]]
"\n".join(lines) if lines else "No date change: every record falls on one UTC day."
