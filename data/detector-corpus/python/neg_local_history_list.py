history = []
for step in range(5):
    history.append(step * step)
recent = history[-3:]
result = {"squares": recent, "count": len(history)}
