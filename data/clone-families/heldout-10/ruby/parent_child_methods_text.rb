history = context[:conversation_history] || []
ids = history.map { |r| r[:call_id] }
counts = history.each_with_object({}) do |r, acc|
  pos = ids.index(r[:parent_call_id])
  next if pos.nil?
  parent_method = history[pos][:method_name]
  next if parent_method.nil? || parent_method == "" || r[:method_name].nil? || r[:method_name] == ""
  key = "#{parent_method} => #{r[:method_name]}"
  acc[key] = acc.fetch(key, 0) + 1
end
if counts.empty?
  "no nested tool calls"
else
  counts.map { |pair, n| "#{pair}: #{n}" }.join("\n")
end
