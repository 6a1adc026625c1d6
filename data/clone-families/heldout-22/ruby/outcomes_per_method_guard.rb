outcomes = {}
history = Array(context[:conversation_history])
history.each do |record|
  next unless record.is_a?(Hash) && record[:outcome_summary].is_a?(Hash)

  ok = record[:outcome_summary][:ok]
  name = record[:method_name]
  next if name.nil? || name.to_s.empty?
  next unless ok == true || ok == false

  (outcomes[name] ||= []) << ok
end
outcomes
