# Step 1: conversation_history is not needed for a pure conversion.
values = args.map(&:to_f)
result = values.sum / values.size
