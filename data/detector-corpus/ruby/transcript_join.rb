history = context[:conversation_history] || []
lines = history.last(10).map do |rec|
  "#{rec[:timestamp]} #{rec[:speaker]}: #{rec[:method_name]}"
end
result = lines.join("\n")
