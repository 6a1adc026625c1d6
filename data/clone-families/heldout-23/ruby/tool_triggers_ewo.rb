history = Array(context[:conversation_history])
last_user = nil
triggers = history.each_with_object([]) do |record, found|
  case record[:role]
  when "user" then last_user = record
  when "tool" then found << { tool: record[:call_id], user: last_user[:call_id], timestamp: record[:timestamp] } if last_user
  end
end
triggers
