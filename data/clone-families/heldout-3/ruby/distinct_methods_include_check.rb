seen = []
(context[:conversation_history] || []).each do |entry|
  name = entry[:method_name]
  next if name.nil?
  seen << name unless seen.include?(name)
end
result = seen
