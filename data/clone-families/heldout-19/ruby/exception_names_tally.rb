history = context.fetch(:conversation_history, nil) || []
history
  .select { |r| r[:role] == "tool" && r[:content].is_a?(String) }
  .flat_map { |r| r[:content].scan(/\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/) }
  .tally
  .sort_by { |name, n| [-n, name] }
  .to_h
