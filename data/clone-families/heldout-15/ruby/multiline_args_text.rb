history = context[:conversation_history] || []
report = []
history.each_with_index do |step, idx|
  next unless step[:method_name] && step[:method_name] != ""

  args = step[:args] || []
  multi = args.each_index.select { |i| args[i].is_a?(String) && args[i].include?("\n") }
  report << "#{step[:call_id]} (#{step[:method_name]}, record #{idx}): multi-line arg at position #{multi.join('/')}" unless multi.empty?
end
report.empty? ? "No call passed a multi-line string." : report.join("\n")
