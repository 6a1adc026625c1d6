history = context[:conversation_history] || []
history.select do |rec|
  text = rec[:content]
  rec[:role] == "user" && text.is_a?(String) && text.count("A-Z") >= 3 && text.count("a-z").zero?
end.map { |rec| rec[:call_id] }
