history = context[:conversation_history] || []
lookup = history.each_with_object({}) { |h, acc| acc[h[:call_id]] = h }
tree = Hash.new { |hash, key| hash[key] = Hash.new(0) }
history.each do |h|
  parent_name = lookup.dig(h[:parent_call_id], :method_name)
  child_name = h[:method_name]
  next if parent_name.to_s.strip.empty? || child_name.to_s.strip.empty?
  tree[parent_name][child_name] += 1
end
{ calls_made_by: tree.transform_values(&:to_h), linked_calls: tree.values.sum { |c| c.values.sum } }
