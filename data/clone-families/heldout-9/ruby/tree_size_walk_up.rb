records = context[:conversation_history] || []
by_id = records.to_h { |r| [r[:call_id], r] }
sizes = {}
records.each do |r|
  node = r
  node = by_id[node[:parent_call_id]] while by_id.key?(node[:parent_call_id])
  sizes[node[:call_id]] = (sizes[node[:call_id]] || 0) + 1
end
roots = records.reject { |r| by_id.key?(r[:parent_call_id]) }.map { |r| r[:call_id] }
roots.to_h { |id| [id, sizes[id]] }
