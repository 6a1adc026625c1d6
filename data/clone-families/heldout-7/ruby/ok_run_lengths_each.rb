history = context[:conversation_history] || []
runs = []
current = 0
history.each do |record|
  if record.dig(:outcome_summary, :ok)
    current += 1
  elsif current > 0
    runs << current
    current = 0
  end
end
runs << current if current > 0
runs
