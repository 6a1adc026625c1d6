history = context[:conversation_history] || []
latest = {}
history.reverse_each do |h|
  next if h[:speaker].nil? || latest.key?(h[:speaker])
  latest[h[:speaker]] = h[:timestamp]
end
lines = latest.map { |who, ts| "#{who} last active at #{ts}" }
result = lines.join("\n")
