records = context[:conversation_history] || []
stats = Hash.new { |h, k| h[k] = { nested: 0, top: 0 } }
records.each do |r|
  next if r[:method_name].nil? || r[:method_name] == ""
  key = r[:parent_call_id].nil? || r[:parent_call_id] == "" ? :top : :nested
  stats[r[:method_name]][key] += 1
end
stats.select { |_, s| s[:top].zero? }.map { |name, s| { method: name, nested_calls: s[:nested] } }.sort_by { |row| row[:method] }
