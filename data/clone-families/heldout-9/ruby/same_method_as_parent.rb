records = context[:conversation_history] || []
by_id = records.to_h { |r| [r[:call_id], r] }
records.select do |r|
  parent = by_id[r[:parent_call_id]]
  name = r[:method_name]
  parent && name && !name.empty? && name == parent[:method_name]
end.map { |r| r[:call_id] }
