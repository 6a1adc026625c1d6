history = Array(context[:conversation_history])
lines = []
history.each_with_index do |step, i|
  next unless step[:role] == "assistant" && step[:content].is_a?(String)

  codes = step[:content].scan(/`([^`\n]+)`/).map(&:first).uniq
  next if codes.empty?

  lines << "reply #{step[:call_id]} (record #{i}): " + codes.map { |c| "`#{c}`" }.join(", ")
end
lines.empty? ? "No inline code in assistant replies." : lines.join("\n")
