history = Array(context[:conversation_history])
levels = Hash.new(0)
history.each do |rec|
  next unless rec[:role] == "tool" && rec[:content].is_a?(String)

  rec[:content].scan(/\b(ERROR|WARNING|WARN|INFO|DEBUG)\b/) { |(level)| levels[level] += 1 }
end
levels
