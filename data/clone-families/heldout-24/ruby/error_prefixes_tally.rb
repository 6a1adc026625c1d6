history = context[:conversation_history] || []
prefixes = history.filter_map { |record|
  outcome = record[:outcome_summary]
  next unless outcome.is_a?(Hash) && outcome[:ok] == false

  message = outcome[:error_message]
  message.split(":", 2).first.strip if message.is_a?(String) && message.include?(":")
}.tally
Agent::Outcome.ok(prefixes)
