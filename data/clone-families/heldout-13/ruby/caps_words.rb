history = context[:conversation_history] || []
history.select do |rec|
  text = rec[:content]
  rec[:role] == "user" && text.is_a?(String) && text.split.any? { |w| w.count("A-Z") >= 3 && w.count("a-z").zero? }
end.map { |rec| rec[:call_id] }
