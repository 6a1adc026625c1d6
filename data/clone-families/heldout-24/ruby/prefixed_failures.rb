history = context[:conversation_history] || []
failures = []
history.each do |record|
  outcome = record[:outcome_summary]
  next unless outcome.is_a?(Hash) && outcome[:ok] == false

  message = outcome[:error_message]
  next unless message.is_a?(String) && message.include?(":")

  failures << [record[:call_id], message.split(":", 2).first.strip]
end
Agent::Outcome.ok(failures)
