pending = []
turns = context[:conversation_history] || []
turns.each do |turn|
  if turn[:role] == "user"
    pending = []
    next
  end
  summary = turn[:outcome_summary] || {}
  pending << { call: turn[:call_id], message: summary[:error_message] } if summary[:status] != "ok"
end
pending
