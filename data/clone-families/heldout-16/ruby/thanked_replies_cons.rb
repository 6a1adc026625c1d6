records = Array(context[:conversation_history])
records.each_cons(2).filter_map do |reply, answer|
  next unless reply[:role] == "assistant" && answer[:role] == "user"
  next unless answer[:content].is_a?(String)

  reply[:call_id] if answer[:content] =~ /\b(thanks|thank you|thx)\b/i
end
