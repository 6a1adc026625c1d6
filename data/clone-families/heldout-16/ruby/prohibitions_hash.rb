msgs = context.fetch(:conversation_history, nil) || []
by_message = {}
msgs.each do |m|
  next if m[:role] != "user" || !m[:content].is_a?(String)

  found = m[:content].scan(/\b(?:don['’]t|do not|never)\s+([^.!?\n]+)/i).map { |(p)| p.strip }
  by_message[m[:call_id]] = found if found.any?
end
by_message
