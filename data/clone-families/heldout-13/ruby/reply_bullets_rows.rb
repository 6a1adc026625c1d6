def bullet_line?(line)
  stripped = line.lstrip
  stripped.start_with?("- ", "* ") || stripped.match?(/\A\d+\. /)
end

history = context[:conversation_history] || []
rows = history.map do |h|
  next unless h[:role] == "assistant" && h[:content]
  all_lines = h[:content].split("\n")
  { id: h[:call_id], bullets: all_lines.count { |l| bullet_line?(l) }, lines: all_lines.size }
end
rows.compact.reject { |row| row[:bullets].zero? }
