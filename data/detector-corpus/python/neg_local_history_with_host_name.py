# Host configuration: history_names=("history",)
history = [line for line in kwargs.get("log", "").splitlines() if line]
result = history[-1] if history else ""
