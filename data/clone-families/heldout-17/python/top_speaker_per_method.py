from collections import Counter

history = context.get("conversation_history", [])
speakers = {}
for record in history:
    method = record.get("method_name")
    speaker = record.get("speaker")
    if not method or not speaker:
        continue
    speakers.setdefault(method, Counter())[speaker] += 1
result = {method: names.most_common(1)[0][0] for method, names in speakers.items()}
