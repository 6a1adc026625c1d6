entries = context[:conversation_history] || []
last_by_method = entries.inject({}) do |memo, e|
  e[:method_name] ? memo.merge(e[:method_name] => e) : memo
end
lines = last_by_method.map { |m, e| "#{m} -> #{e[:call_id]} at #{e[:timestamp]}" }
result = lines.empty? ? "nothing to dedupe" : lines.join("\n")
