history = context.fetch(:conversation_history, nil) || []
tally = Hash.new(0)
history.each do |rec|
  method = rec[:method_name]
  next if method.to_s.empty?

  outcome = rec[:outcome_summary] || {}
  kwargs = rec[:kwargs]
  tally[method] += 1 if outcome[:ok] == false && kwargs.is_a?(Hash) && !kwargs.empty?
end
tally
