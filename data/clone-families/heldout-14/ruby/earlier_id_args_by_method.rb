history = context[:conversation_history] || []
earlier = {}
by_method = Hash.new { |h, k| h[k] = [] }
history.each do |entry|
  name = entry[:method_name]
  if name && !name.empty?
    link = (entry[:args] || []).find { |arg| arg.is_a?(String) && earlier[arg] }
    by_method[name] << entry[:call_id] if link
  end
  earlier[entry[:call_id]] = true
end
{ total: by_method.values.sum(&:size), calls_by_method: by_method }
