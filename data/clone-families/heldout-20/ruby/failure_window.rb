history = context[:conversation_history] || []
first_fail = history.index { |rec| rec.dig(:outcome_summary, :ok) == false }
window = []
unless first_fail.nil?
  from = [first_fail - 2, 0].max
  window = history[from..first_fail + 2].map { |rec| [rec[:call_id], rec[:content]] }
end
window
