from collections import Counter

history = context["conversation_history"]
if not history:
    result = {}
else:
    result = dict(Counter(
        call["method_name"] for call in history if call.get("method_name") and not call.get("args")
    ))
