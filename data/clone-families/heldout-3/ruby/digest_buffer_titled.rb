title = "Conversation digest"
entries = context[:conversation_history] || []
buffer = +""
buffer << title << " (" << entries.size.to_s << " records)\n"
entries.each do |e|
  next if e.nil?
  state = e.dig(:outcome_summary, :status)
  buffer << "- " << e[:speaker].to_s << " called " << e[:method_name].to_s << " (" << state.to_s << ")\n"
end
result = buffer
