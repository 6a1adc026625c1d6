records = context[:conversation_history] || []
by_id = records.to_h { |r| [r[:call_id], r] }
methods = {}
records.each do |r|
  node = r
  node = by_id[node[:parent_call_id]] while by_id.key?(node[:parent_call_id])
  bucket = (methods[node[:call_id]] ||= [])
  name = r[:method_name]
  bucket << name if name && !name.empty? && !bucket.include?(name)
end
roots = records.reject { |r| by_id.key?(r[:parent_call_id]) }.map { |r| r[:call_id] }
roots.to_h { |id| [id, methods[id].size] }
