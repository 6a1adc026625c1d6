history = context[:conversation_history] || []
introduced = history.inject({}) do |acc, entry|
  kw = entry[:kwargs]
  next acc unless kw.is_a?(Hash)
  kw.keys.each { |k| acc[k.to_s] = entry[:call_id] unless acc.key?(k.to_s) }
  acc
end
introduced.map { |key, cid| "#{key}: first passed in #{cid}" }.join("\n")
