history = context[:conversation_history] || []
found = {}
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  floats = (rec[:args] || []).select { |arg| arg.is_a?(Float) }
  next if floats.empty?

  found[rec[:method_name]] = [found[rec[:method_name]], floats.max].compact.max
end
found
