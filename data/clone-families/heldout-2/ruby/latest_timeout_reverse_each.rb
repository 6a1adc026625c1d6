value = nil
(context[:conversation_history] || []).reverse_each do |entry|
  kw = entry[:kwargs]
  next unless kw && kw.key?(:timeout)
  value = kw[:timeout]
  break
end
result = value
