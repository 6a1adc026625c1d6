history = context[:conversation_history] || []
by_id = {}
history.each { |rec| by_id[rec[:call_id]] = rec }
children = Hash.new(0)
history.each do |rec|
  parent = by_id[rec[:parent_call_id]]
  next unless parent
  child_method = rec[:method_name].to_s
  parent_method = parent[:method_name].to_s
  next if child_method.empty? || parent_method.empty?
  children[parent_method] += 1
end
children
