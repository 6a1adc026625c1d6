history = context[:conversation_history] || []
names = []
history.each do |entry|
  next if entry[:role] != "tool" || !entry[:content].is_a?(String)

  names.concat(entry[:content].scan(/\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/))
end
Agent::Outcome.ok(names.uniq.map { |name| [name, names.count(name)] })
