history = context[:conversation_history] || []
by_method = {}
history.each do |entry|
  m = entry[:method_name]
  next unless m && m != ""

  (by_method[m] ||= []) << (entry[:args] || [])
end
lines = by_method.sort.filter_map do |m, lists|
  slots = (0...lists.map(&:length).max.to_i).select { |i| lists.select { |l| l.length > i }.map { |l| l[i] }.tally.size > 1 }
  "#{m} varies at arg #{slots.join(', ')} over #{lists.size} calls" unless slots.empty?
end
lines.empty? ? "Every method was always called with the same arguments." : lines.join("\n")
