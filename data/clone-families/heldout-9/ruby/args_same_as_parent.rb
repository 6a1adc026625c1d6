records = context[:conversation_history] || []
by_id = records.to_h { |r| [r[:call_id], r] }
records.select do |r|
  parent = by_id[r[:parent_call_id]]
  args = r[:args] || []
  parent && !args.empty? && args == (parent[:args] || [])
end.map { |r| r[:call_id] }
