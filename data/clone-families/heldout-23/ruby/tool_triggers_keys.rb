history = Array(context[:conversation_history])
last_user = nil
triggers = []
history.each do |record|
  next unless record.is_a?(Hash)

  case record[:role]
  when "user" then last_user = record
  when "tool" then triggers << { output: record[:call_id], request: last_user[:call_id] } if last_user
  end
end
triggers
