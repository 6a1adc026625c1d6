log = context[:conversation_history] || []
out = []
open_q = nil
log.each do |e|
  case e[:role]
  when "user"
    out << open_q if open_q
    open_q = { question: e[:content], answer: nil, asked_at: e[:timestamp] }
  when "assistant"
    if open_q
      open_q[:answer] = e[:content]
      out << open_q
      open_q = nil
    end
  end
end
out << open_q if open_q
out
