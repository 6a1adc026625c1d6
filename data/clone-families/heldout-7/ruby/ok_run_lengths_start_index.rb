calls = context[:conversation_history] || []
out = []
start = nil
calls.each_with_index do |c, i|
  good = c.dig(:outcome_summary, :ok) == true
  start ||= i if good
  if !good && start
    out << { from: calls[start][:call_id], length: i - start }
    start = nil
  end
end
out << { from: calls[start][:call_id], length: calls.size - start } if start
out
