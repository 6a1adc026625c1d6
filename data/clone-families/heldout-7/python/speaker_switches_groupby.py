from itertools import groupby

runs = [name for name, _ in groupby(conversation_history, key=lambda t: t.get("speaker"))]
n_switch = max(len(runs) - 1, 0)
result = f"speaker changed {n_switch} times ({len(runs)} runs)"
