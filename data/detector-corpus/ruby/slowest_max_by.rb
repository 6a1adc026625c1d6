history = context.dig(:conversation_history) || []
slowest = history.max_by { |r| r[:duration_ms].to_i }
result = slowest && slowest[:method_name]
