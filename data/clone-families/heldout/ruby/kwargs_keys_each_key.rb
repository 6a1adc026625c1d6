keys = []
(context[:conversation_history] || []).each do |rec|
  kw = rec[:kwargs]
  next unless kw.is_a?(Hash)
  kw.each_key { |k| keys << k.to_s }
end
result = keys.uniq.sort
