def numeric_tokens(text)
  text.split(/[\s,;:!?()]+/).map { |w| w.sub(/\.\z/, "") }.select { |w| w.match?(/\A-?\d+(\.\d+)?\z/) }
end

log = context[:conversation_history] || []
found = []
log.each do |entry|
  next if entry[:role] != "user" || entry[:content].nil?
  found.concat(numeric_tokens(entry[:content]))
end
found.empty? ? "the user has not mentioned any numbers" : "numbers from the user: #{found.join(', ')}"
