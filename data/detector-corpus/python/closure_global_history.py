history = context["conversation_history"]


def calls_to(method):
    return [r for r in history if r["method_name"] == method]


result = {"adds": len(calls_to("add")), "subs": len(calls_to("subtract"))}
