import statistics

log = context["conversation_history"]
speakers = sorted({r["speaker"] for r in log})
lines = []
for sp in speakers:
    mean_len = statistics.mean(len(r["result"] or "") for r in log if r["speaker"] == sp)
    lines.append(f"{sp}: avg result {mean_len:.2f} chars")
result = "\n".join(lines)
