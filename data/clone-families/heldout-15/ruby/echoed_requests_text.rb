msgs = context[:conversation_history] || []
user_text = nil
notes = []
msgs.each_with_index do |m, i|
  if m[:role] == "user"
    user_text = m[:content].is_a?(String) ? m[:content].strip : ""
  elsif m[:role] == "assistant" && user_text && !user_text.empty? && m[:content].is_a?(String)
    notes << "reply #{m[:call_id]} (##{i}) repeats the request \"#{user_text}\"" if m[:content].downcase.include?(user_text.downcase)
  end
end
notes.empty? ? "No reply echoed the user's latest request." : notes.join("\n")
