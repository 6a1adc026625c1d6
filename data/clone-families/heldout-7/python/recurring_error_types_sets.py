once, again = set(), set()
for turn in conversation_history:
    out = turn.get("outcome_summary") or {}
    if out.get("ok") is False:
        etype = out.get("error_type")
        if etype is None:
            continue
        if etype in once:
            again.add(etype)
        once.add(etype)

result = "recurring errors: " + (", ".join(sorted(again)) if again else "none")
