history = context[:conversation_history] || []
done = []
history.each do |record|
  outcome = record[:outcome_summary] || {}
  summary = outcome[:summary]
  next unless outcome[:ok] == true && summary.is_a?(String)

  word = summary.split.first
  done << record[:call_id] if word&.downcase&.end_with?("ed")
end
Agent::Outcome.ok(done)
