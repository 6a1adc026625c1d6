memory = context[:memory] || {}
needle = (memory[:search_term] || "invoice").to_s.downcase
matches = []
(context[:conversation_history] || []).each do |rec|
  next unless rec[:args]
  text = rec[:args].map(&:to_s).join(" ").downcase
  matches << { call_id: rec[:call_id], method: rec[:method_name] } if text.include?(needle)
end
result = matches
