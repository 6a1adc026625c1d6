history = context.fetch(:conversation_history, nil) || []
failed_with_kwargs = history.select do |call|
  outcome = call[:outcome_summary] || {}
  options = call[:kwargs]
  !call[:method_name].to_s.empty? && outcome[:ok] == false && options.is_a?(Hash) && !options.empty?
end
failed_with_kwargs.map { |call| call[:method_name] }.tally
