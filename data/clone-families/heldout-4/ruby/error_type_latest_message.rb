history = context[:conversation_history] || []

seen = {}
history.each do |rec|
  type = rec[:outcome_summary][:error_type]
  next if type.nil?
  seen[type] = rec[:outcome_summary][:error_message]
end

seen
