history = context[:conversation_history] || []

seen = {}
history.each do |rec|
  type = rec[:outcome_summary][:error_type]
  next if type.nil?
  if seen.key?(type)
    seen[type][1] = rec[:timestamp]
  else
    seen[type] = [rec[:timestamp], rec[:timestamp]]
  end
end

seen
