by_request = {}
current = nil
Array(context[:conversation_history]).each do |msg|
  if msg[:role] == "user"
    body = msg[:content]
    current = body.is_a?(String) && body.downcase.match?(/\b(stop|cancel|abort)\b/) ? msg[:call_id] : nil
  elsif current && msg[:role] == "tool"
    (by_request[current] ||= []) << { call_id: msg[:call_id], method: msg[:method_name] }
  end
end
by_request
