history = context[:conversation_history] || []
failures = history.filter_map { |r| r[:method_name] unless r.dig(:outcome_summary, :ok) }
result = <<~TEXT
  Failed calls: #{failures.join(', ')}
  Total calls: #{history.length}
TEXT
