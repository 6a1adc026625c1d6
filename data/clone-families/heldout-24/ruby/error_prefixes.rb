history = context[:conversation_history] || []
prefixes = Hash.new(0)
history.each do |record|
  outcome = record[:outcome_summary]
  next unless outcome.is_a?(Hash) && outcome[:ok] == false

  message = outcome[:error_message]
  next unless message.is_a?(String) && message.include?(":")

  prefixes[message.split(":", 2).first.strip] += 1
end
Agent::Outcome.ok(prefixes)
