log = context[:conversation_history] || []
stamps = log.map { |e| e[:timestamp] }.uniq
lines = []
stamps.each do |t|
  ids = log.select { |e| e[:timestamp] == t }.map { |e| e[:call_id] }
  lines << "#{t}: #{ids.join(', ')}" if ids.size >= 2
end
lines.empty? ? "no two records share a timestamp" : lines.join("\n")
