calls = context[:conversation_history] || []
calls.each_with_object([]) do |c, acc|
  before = acc.empty? ? 0 : acc.last[1]
  bad = c.dig(:outcome_summary, :status) != "ok"
  acc << [c[:call_id], bad ? before + 1 : before]
end
