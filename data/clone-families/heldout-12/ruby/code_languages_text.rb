def fence_language(line)
  return nil unless line.start_with?("```")
  rest = line[3..].to_s.chomp
  word = rest.chars.take_while { |c| c.match?(/[A-Za-z0-9]/) }.join
  word.empty? ? nil : word
end

log = context[:conversation_history] || []
counts = {}
log.each do |entry|
  next if entry[:role] != "assistant" || entry[:content].nil?
  entry[:content].split("\n").each do |line|
    lang = fence_language(line)
    counts[lang] = (counts[lang] || 0) + 1 if lang
  end
end
counts.empty? ? "no fenced code written yet" : counts.map { |lang, n| "#{lang} x#{n}" }.join(", ")
