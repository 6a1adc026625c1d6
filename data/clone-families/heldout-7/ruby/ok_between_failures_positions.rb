log = context[:conversation_history] || []
fail_positions = []
log.each_with_index { |e, i| fail_positions << i unless e.dig(:outcome_summary, :ok) }
if fail_positions.size < 2
  { ok_between: 0, failures: fail_positions.size }
else
  window = log[fail_positions.first..fail_positions.last]
  { ok_between: window.count { |e| e.dig(:outcome_summary, :ok) }, failures: fail_positions.size, span_records: window.size }
end
