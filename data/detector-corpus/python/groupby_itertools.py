from itertools import groupby

hist = sorted(context["conversation_history"], key=lambda r: r["speaker"])
result = {
    speaker: len(list(group))
    for speaker, group in groupby(hist, key=lambda r: r["speaker"])
}
