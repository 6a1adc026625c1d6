history = context.fetch(:conversation_history, nil) || []
history.each_with_object(Hash.new(0)) do |entry, per_method|
  name = entry[:method_name]
  next if name.to_s.empty?

  outcome = entry[:outcome_summary] || {}
  options = entry[:kwargs]
  per_method[name] += 1 if outcome[:ok] == false && options.is_a?(Hash) && !options.empty?
end
