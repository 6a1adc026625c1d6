history = context.fetch(:conversation_history, nil) || []
counts = Hash.new(0)
history.each { |call|
  kw = call[:kwargs]
  outcome = call[:outcome_summary] || {}
  name = call[:method_name]
  next if name.to_s.empty?

  counts[name] += 1 if outcome[:ok] == false && kw.is_a?(Hash) && !kw.empty?
}
counts
