history = context[:conversation_history] || []
streak = 0
history.reverse_each do |r|
  break unless r.dig(:outcome_summary, :ok)
  streak += 1
end
result = streak
