open_needs = []
done = set()
for m in conversation_history:
    n = m.get("need") or ""
    if n == "":
        continue
    if m.get("outcome_summary") and m["outcome_summary"].get("ok") is True:
        done.add(n)
    if n not in open_needs:
        open_needs.append(n)
open_needs = [n for n in open_needs if n not in done]
f"Still unmet: {', '.join(open_needs)}" if open_needs else "All needs met."
