history = context.fetch(:conversation_history, nil) || []
out = []
history.each do |entry|
  body = entry[:content]
  next unless entry[:role] == "assistant" && body.is_a?(String) && body.include?("#")

  titles = body.lines.map(&:chomp).grep(/\A\#{1,6}[ \t]+\S/).map { |l| l.sub(/\A#+[ \t]+/, "").strip }
  out << "#{entry[:call_id]}: #{titles.join(' | ')}" unless titles.empty?
end
out.empty? ? "No assistant reply used headings." : out.join("\n")
