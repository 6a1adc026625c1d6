entries = context[:conversation_history] || []
entries.each_with_object(Hash.new(0)) do |entry, per_method|
  method = entry[:method_name]
  next if method.to_s.empty?

  Array(entry[:args]).each do |value|
    per_method[method] += 1 if value.is_a?(String) && value.match?(/\S\s+\S/)
  end
end
