history = context[:conversation_history] || []
history
  .select { |m| m[:role] == "user" && m[:content].is_a?(String) }
  .flat_map { |m| m[:content].scan(/\b(?:[01]?\d|2[0-3]):[0-5]\d\b/) }
  .tally
