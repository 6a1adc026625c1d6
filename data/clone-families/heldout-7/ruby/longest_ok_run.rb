history = context[:conversation_history] || []
best = 0
current = 0
history.each do |record|
  if record.dig(:outcome_summary, :ok)
    current += 1
    best = current if current > best
  else
    current = 0
  end
end
best
