records = context[:conversation_history] || []
result = records[0, 3].collect do |rec|
  "#{rec[:call_id]} #{rec[:method_name]}"
end
