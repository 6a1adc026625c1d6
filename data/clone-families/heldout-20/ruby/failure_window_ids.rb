history = context[:conversation_history] || []
window = []
first_fail = history.index do |rec|
  rec.is_a?(Hash) && rec.dig(:outcome_summary, :ok) == false
end
unless first_fail.nil?
  from = [first_fail - 2, 0].max
  window = history[from..first_fail + 2].map do |rec|
    rec[:call_id]
  end
end
window
