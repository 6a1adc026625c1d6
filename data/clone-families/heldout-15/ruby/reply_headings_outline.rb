def heading_title(line)
  return nil unless line.start_with?("#")

  hashes = line[/\A#+/].length
  rest = line[hashes..]
  return nil if hashes > 6 || rest.nil? || !rest.start_with?(" ", "\t")

  title = rest.strip
  title.empty? ? nil : title
end

outline = []
(context[:conversation_history] || []).each do |turn|
  next unless turn[:role] == "assistant"

  content = turn[:content].to_s
  titles = content.split("\n").map { |l| heading_title(l) }.compact
  outline << [turn[:call_id], titles] if titles.any?
end
outline
