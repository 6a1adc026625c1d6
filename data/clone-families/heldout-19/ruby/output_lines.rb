history = context[:conversation_history] || []
totals = Hash.new(0)
counts = Hash.new(0)
history.each do |record|
  next unless record[:role] == "tool" && record[:content].is_a?(String)

  method = record[:method_name]
  next if method.nil? || method.empty?

  totals[method] += record[:content].lines.size
  counts[method] += 1
end
counts.keys.to_h { |m| [m, (totals[m].to_f / counts[m]).round(2)] }
