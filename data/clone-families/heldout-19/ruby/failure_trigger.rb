history = context[:conversation_history] || []
last_user = nil
failure = nil
history.each do |record|
  outcome = record[:outcome_summary] || {}
  if outcome[:ok] == false
    failure = record
    break
  end
  last_user = record if record[:role] == "user"
end
if failure && last_user
  { failed_call: failure[:call_id], user_call: last_user[:call_id], message: last_user[:content] }
end
