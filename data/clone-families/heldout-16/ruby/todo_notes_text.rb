history = context[:conversation_history] || []
lines = []
history.each_with_index do |entry, idx|
  next unless entry[:content].is_a?(String)

  entry[:content].scan(/\b(TODO|FIXME)\b:?[ \t]*(.*)$/) do |marker, rest|
    rest = rest.strip
    lines << "##{idx} #{entry[:call_id]} #{marker}: #{rest.empty? ? '(no text)' : rest}"
  end
end
Agent::Outcome.ok(lines.empty? ? "No TODO or FIXME notes found." : lines.join("\n"))
