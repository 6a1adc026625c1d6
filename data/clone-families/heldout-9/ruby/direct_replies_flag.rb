records = context[:conversation_history] || []
used_tool = false
direct = []
records.each do |r|
  case r[:role]
  when "user" then used_tool = false
  when "tool" then used_tool = true
  when "assistant" then direct << r[:call_id] unless used_tool
  end
end
direct
