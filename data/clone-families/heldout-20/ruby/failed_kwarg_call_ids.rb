history = context.fetch(:conversation_history, nil) || []
failed = []
history.each do |rec|
  method = rec[:method_name]
  next if method.to_s.empty?

  outcome = rec[:outcome_summary] || {}
  kwargs = rec[:kwargs]
  failed << rec[:call_id] if outcome[:ok] == false && kwargs.is_a?(Hash) && !kwargs.empty?
end
failed
