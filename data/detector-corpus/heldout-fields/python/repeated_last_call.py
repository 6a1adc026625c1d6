h = context["conversation_history"]
prev = h[-2]
last = h[-1]
result = prev["method_name"] == last["method_name"] and last["args"] == prev["args"]
