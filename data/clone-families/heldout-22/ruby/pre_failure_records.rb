history = Array(context[:conversation_history])
windows = []
history.each_with_index do |record, index|
  next unless record.dig(:outcome_summary, :ok) == false

  before = history[[index - 2, 0].max...index].map { |prior| prior[:call_id] }
  windows << { failure: record[:call_id], before: before }
end
windows
