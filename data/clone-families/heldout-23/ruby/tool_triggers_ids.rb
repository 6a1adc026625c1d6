history = Array(context[:conversation_history])
triggers = []
last_user = nil
history.each do |record|
  case record[:role]
  when "user" then last_user = record
  when "tool" then triggers << { tool: record[:call_id], user: last_user[:call_id], method: record[:method_name] } if last_user
  end
end
triggers
