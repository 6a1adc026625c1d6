from collections import Counter
from datetime import datetime

history = context.get("conversation_history") or []
parsed = [
    (datetime.fromisoformat(h["timestamp"].replace("Z", "+00:00")), h.get("speaker"))
    for h in history
    if h.get("timestamp")
]
result = {}
if parsed:
    horizon = max(t for t, _ in parsed).timestamp() - 3600
    per_speaker = Counter(s for t, s in parsed if s and t.timestamp() >= horizon)
    result = dict(per_speaker.most_common())
