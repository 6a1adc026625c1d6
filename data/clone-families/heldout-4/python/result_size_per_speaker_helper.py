def result_len(entry):
    value = entry.get("result")
    if value is None:
        return 0
    return len(value)


def average(xs):
    return sum(xs) / len(xs) if xs else 0.0


msgs = context.get("conversation_history", [])
by_speaker = {}
for m in msgs:
    by_speaker.setdefault(m["speaker"], []).append(result_len(m))

result = [
    {"speaker": name, "average_result_size": round(average(lens), 2), "n": len(lens)}
    for name, lens in by_speaker.items()
]
