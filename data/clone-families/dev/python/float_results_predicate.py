def is_float_result(rec):
    outcome = rec["outcome_summary"]
    return outcome["ok"] and outcome["value_class"] == "Float"


def brief(rec):
    return {"method": rec["method_name"], "args": rec["args"]}


calls = context["conversation_history"]
result = list(map(brief, filter(is_float_result, calls)))
