if not args:
    raise ValueError("expected a number; conversation_history is not a substitute")
result = float(args[0]) ** 0.5
