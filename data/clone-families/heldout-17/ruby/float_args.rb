history = context[:conversation_history] || []
found = {}
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  floats = (rec[:args] || []).select { |arg| arg.is_a?(Float) }
  found[rec[:call_id]] = floats unless floats.empty?
end
found
