name = kwargs[:method].to_s
rows = []
(context[:conversation_history] || []).each do |r|
  next unless r[:method_name].to_s == name
  rows << { call_id: r[:call_id], args: r[:args] }
end
rows
