verbs = Hash.new(0)
history = context[:conversation_history] || []
history.each do |record|
  next unless record.is_a?(Hash)

  outcome = record[:outcome_summary].is_a?(Hash) ? record[:outcome_summary] : {}
  summary = outcome[:summary]
  next unless outcome[:ok] == true && summary.is_a?(String) && summary.match?(/\S/)

  word = summary.split.first
  verbs[word.downcase] += 1 if word
end
Agent::Outcome.ok(verbs)
