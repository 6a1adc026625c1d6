collected = []
(context[:conversation_history] || []).reverse_each do |rec|
  break if rec[:role] == "user"
  outcome = rec[:outcome_summary] || {}
  collected << outcome[:error_message] if outcome[:ok] == false
end
{ errors: collected.reverse, count: collected.size }
