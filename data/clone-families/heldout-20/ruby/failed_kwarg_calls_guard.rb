tally = Hash.new(0)
history = context.fetch(:conversation_history, nil) || []
history.each do |rec|
  next unless rec.is_a?(Hash)

  method = rec[:method_name]
  next if method.to_s.empty?

  kwargs = rec[:kwargs]
  outcome = rec[:outcome_summary] || {}
  next unless outcome.is_a?(Hash)

  tally[method] += 1 if outcome[:ok] == false && kwargs.is_a?(Hash) && !kwargs.empty?
end
tally
