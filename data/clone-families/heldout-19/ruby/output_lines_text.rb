history = Array(context[:conversation_history])
per_method = {}
history.each do |msg|
  next unless msg[:role] == "tool"
  next unless msg[:content].is_a?(String)
  next if msg[:method_name].to_s.empty?

  (per_method[msg[:method_name]] ||= []) << msg[:content].each_line.count
end
lines = per_method.sort.map do |name, sizes|
  format("%s: %.1f lines per output (%d outputs)", name, sizes.sum.to_f / sizes.size, sizes.size)
end
lines.empty? ? "No tool output to measure." : lines.join("\n")
