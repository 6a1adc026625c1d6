history = Array(context[:conversation_history])
last_user = nil
run_outputs = []
history.each do |record|
  case record[:role]
  when "user" then last_user = record
  when "tool"
    request = last_user && last_user[:content]
    run_outputs << record[:call_id] if request.is_a?(String) && request.match?(/\brun\b/i)
  end
end
run_outputs
