history = context[:conversation_history] || []
records = Hash.new { |hash, key| hash[key] = [] }
history.each do |record|
  role = record[:role]
  goal = record[:goal]
  next unless role.is_a?(String) && !role.empty? && goal.is_a?(String) && !goal.empty?

  records[role] << record[:call_id]
end
records.to_h
