history = context[:conversation_history] || []
verbs = Hash.new(0)
history.each do |record|
  outcome = record[:outcome_summary] || {}
  summary = outcome[:summary]
  next unless outcome[:ok] == true && summary.is_a?(String)

  word = summary.split.first
  verbs[word.downcase] += 1 if word
end
Agent::Outcome.ok(verbs)
