history = Array(context[:conversation_history])
last_user = nil
triggers = []
history.each do |record|
  case record[:role]
  when "user" then last_user = record
  when "tool" then triggers << { tool: record[:call_id], user: last_user[:call_id] } if last_user
  end
end
triggers
