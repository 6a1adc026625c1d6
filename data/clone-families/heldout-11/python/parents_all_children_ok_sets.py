history = conversation_history
ids_in_order = [r["call_id"] for r in history]
present = set(ids_in_order)

parents = set()
spoiled = set()
for r in history:
    p = r.get("parent_call_id")
    if p in present:
        parents.add(p)
        summary = r.get("outcome_summary")
        if not summary or summary.get("ok") is not True:
            spoiled.add(p)

clean = parents - spoiled
result = {"clean_parents": [cid for cid in ids_in_order if cid in clean], "parents_with_problems": len(spoiled)}
