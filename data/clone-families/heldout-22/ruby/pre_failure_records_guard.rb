history = Array(context[:conversation_history])
windows = []
history.each_with_index { |record, index|
  next unless record.is_a?(Hash) && record[:outcome_summary].is_a?(Hash)
  next unless record[:outcome_summary][:ok] == false

  before = index.zero? ? [] : history[[index - 2, 0].max...index].map { |prior| prior[:call_id] }
  windows << { failure: record[:call_id], before: before }
}
windows
