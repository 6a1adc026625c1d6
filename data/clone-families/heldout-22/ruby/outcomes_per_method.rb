history = Array(context[:conversation_history])
outcomes = {}
history.each do |record|
  name = record[:method_name]
  ok = record.dig(:outcome_summary, :ok)
  next if name.to_s.empty? || ![true, false].include?(ok)

  (outcomes[name] ||= []) << ok
end
outcomes
