log = context[:conversation_history] || []
all_keys = log.flat_map { |e| (e[:kwargs] || {}).keys }.uniq
rows = all_keys.map do |key|
  first = log.find { |e| (e[:kwargs] || {}).key?(key) }
  { key: key, call_id: first[:call_id], method: first[:method_name], at: first[:timestamp] }
end
{ first_uses: rows, distinct_keys: all_keys.size }
