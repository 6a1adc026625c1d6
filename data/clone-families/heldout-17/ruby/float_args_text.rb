history = context[:conversation_history] || []
lines = []
history.each do |step|
  method = step[:method_name]
  next if method.nil? || method.empty?

  values = (step[:args] || []).find_all { |a| a.is_a?(Float) }
  lines << "#{step[:call_id]} #{method}(#{values.map { |v| format('%g', v) }.join(', ')})" if values.any?
end
lines.empty? ? "No call passed a floating-point argument." : lines.join("\n")
