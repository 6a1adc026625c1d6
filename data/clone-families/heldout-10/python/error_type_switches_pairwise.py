from itertools import pairwise

history = context.get("conversation_history") or []
errors = [
    (h["call_id"], h["outcome_summary"].get("error_type"))
    for h in history
    if h.get("outcome_summary") and h["outcome_summary"].get("ok") == False
]
switched = tuple(cur_id for (_, prev_type), (cur_id, cur_type) in pairwise(errors) if cur_type != prev_type)
{"switch_ids": switched, "failures": len(errors)}
