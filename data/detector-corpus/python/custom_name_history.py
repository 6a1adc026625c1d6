# Host configuration: history_names=("history",)
prior = [h for h in history if h["speaker"] == "agent"]
result = prior[-1]["outcome_summary"] if prior else None
