history = context[:conversation_history] || []
pattern = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/
counts = Hash.new(0)
history.each do |record|
  next unless record[:role] == "tool"
  next unless record[:content].is_a?(String)

  record[:content].scan(pattern) { |name| counts[name] += 1 }
end
counts
