history = Array(context[:conversation_history])
failed_at = history.each_index.select { |index| history[index].dig(:outcome_summary, :ok) == false }
windows = failed_at.map { |index|
  before = history[[index - 2, 0].max...index].map { |prior| prior[:call_id] }
  { failure: history[index][:call_id], before: before }
}
windows
