records = context[:conversation_history] || []
previous = nil
after_tool = []
records.each do |r|
  if r[:role] == "assistant" && previous && previous[:role] == "tool"
    after_tool << r[:call_id]
  end
  previous = r
end
after_tool
