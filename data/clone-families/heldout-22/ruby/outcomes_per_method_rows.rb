calls = Array(context[:conversation_history])
verdicts = {}
calls.each do |call|
  method = call[:method_name]
  passed = call.dig(:outcome_summary, :ok)
  next if method.to_s.empty? || ![true, false].include?(passed)

  (verdicts[method] ||= []) << [passed, call[:call_id]]
end
verdicts
