history = context[:conversation_history] || []
first_user = history.index { |r| r[:role] == "user" } || history.length
history.first(first_user).filter_map do |record|
  method = record[:method_name]
  [record[:call_id], method] unless method.nil? || method.empty?
end
