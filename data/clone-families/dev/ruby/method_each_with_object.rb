calls = context[:conversation_history] || []
per_method = calls.each_with_object(Hash.new(0)) do |call, acc|
  acc[call[:method_name]] += 1
end
result = per_method
