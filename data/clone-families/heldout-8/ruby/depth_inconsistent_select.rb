history = context[:conversation_history] || []
by_id = history.to_h { |r| [r[:call_id], r] }
history.select do |r|
  parent = by_id[r[:parent_call_id]]
  parent && r[:depth] != parent[:depth] + 1
end.map { |r| r[:call_id] }
