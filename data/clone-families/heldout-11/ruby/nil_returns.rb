history = context[:conversation_history] || []
empty_results = []
history.each do |rec|
  outcome = rec[:outcome_summary]
  next if outcome.nil?
  next unless outcome[:ok] == true
  empty_results << rec[:call_id] if outcome[:value_class] == "NilClass"
end
empty_results
