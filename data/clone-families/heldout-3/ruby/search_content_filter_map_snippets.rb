needle = (kwargs[:query] || "").downcase
result = (context[:conversation_history] || []).filter_map do |entry|
  text = entry[:content]
  next nil unless text.is_a?(String) && text.downcase.include?(needle)
  { call_id: entry[:call_id], snippet: text[0, 60] }
end
