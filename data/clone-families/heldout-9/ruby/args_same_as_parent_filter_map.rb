log = context[:conversation_history] || []
ids = log.map { |e| e[:call_id] }
lines = log.filter_map do |e|
  idx = ids.index(e[:parent_call_id])
  next if idx.nil?
  parent_args = Array(log[idx][:args])
  own = Array(e[:args])
  "#{e[:call_id]} repeats #{e[:parent_call_id]} with #{own.inspect}" if own.any? && own == parent_args
end
lines.empty? ? "no call repeats its parent's arguments" : lines.join("\n")
