log = context[:conversation_history] || []
picked = []
log.each_with_index do |entry, i|
  next unless entry[:speaker] == "assistant"
  j = i - 1
  tool_before = false
  while j >= 0 && log[j][:speaker] != "user"
    tool_before = true if log[j][:role] == "tool"
    j -= 1
  end
  picked << entry unless tool_before
end
if picked.empty?
  "every reply used a tool (or there were no replies)"
else
  picked.map { |e| "#{e[:call_id]}: #{e[:content].to_s.strip[0, 40]}" }.join("\n")
end
