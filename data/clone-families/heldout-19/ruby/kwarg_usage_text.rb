history = Array(context[:conversation_history])
stats = Hash.new { |h, k| h[k] = { total: 0, keyed: 0 } }
history.each do |call|
  next if call[:method_name].to_s.empty?

  stats[call[:method_name]][:total] += 1
  stats[call[:method_name]][:keyed] += 1 unless call[:kwargs].nil? || call[:kwargs].empty?
end
lines = stats.sort.map do |name, s|
  "#{name}: #{s[:keyed]}/#{s[:total]} calls with keyword arguments (#{(100.0 * s[:keyed] / s[:total]).round}%)"
end
lines.empty? ? "No method calls found." : lines.join("\n")
