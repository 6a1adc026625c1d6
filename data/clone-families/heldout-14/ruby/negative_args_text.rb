history = context[:conversation_history] || []
lines = []
history.each_with_index do |call, i|
  name = call[:method_name]
  next unless name && name != ""

  neg = (call[:args] || []).grep(Numeric).select { |n| n < 0 }
  lines << "#{call[:call_id]} #{name}(#{neg.join(', ')}) at ##{i}" unless neg.empty?
end
lines.empty? ? "No negative numeric arguments." : "Negative numeric arguments:\n#{lines.join("\n")}"
