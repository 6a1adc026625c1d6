history = context[:conversation_history] || []
history.each_with_object(Hash.new(0)) do |step, int_args|
  method = step[:method_name]
  next if method.nil? || method.empty?

  Array(step[:args]).each { |value| int_args[method] += 1 if value.is_a?(Integer) }
end
