(context[:conversation_history] || []).each do |rec|
  puts "#{rec[:call_id]} #{rec[:method_name]}"
end
result = nil
