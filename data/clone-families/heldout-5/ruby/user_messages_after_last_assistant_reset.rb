convo = context[:conversation_history] || []

unanswered = []
convo.each do |h|
  case h[:speaker]
  when "assistant" then unanswered = []
  when "user" then unanswered << { call_id: h[:call_id], text: h[:content] }
  end
end

{ count: unanswered.size, messages: unanswered }
