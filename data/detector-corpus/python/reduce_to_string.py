from functools import reduce

h = context["conversation_history"]
text = reduce(lambda acc, r: acc + f"{r['method_name']};", h, "")
result = text
