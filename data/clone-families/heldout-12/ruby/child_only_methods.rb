history = context[:conversation_history] || []
top_level = {}
seen = {}
history.each do |rec|
  method = rec[:method_name]
  next if method.nil? || method.empty?
  seen[method] = true
  parent = rec[:parent_call_id]
  top_level[method] = true if parent.nil? || parent.empty?
end
seen.keys.reject { |method| top_level[method] }.sort
