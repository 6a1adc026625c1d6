from datetime import datetime, timedelta

stamps = [datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00")) for entry in conversation_history]
window = timedelta(minutes=1)
counts = []
for anchor in stamps:
    inside = [s for s in stamps if anchor <= s < anchor + window]
    counts.append(len(inside))
f"peak rate: {max(counts, default=0)} records per minute"
