history = context[:conversation_history] || []
counts = history.inject({}) do |memo, rec|
  name = rec[:method_name] || "unknown"
  memo[name] = (memo[name] || 0) + 1
  memo
end
result = counts.sort_by { |_, n| -n }.to_h
