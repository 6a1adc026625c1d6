calls = context[:conversation_history] || []
last_user = -1
last_tool = -1
direct = []
calls.each_with_index do |c, idx|
  case c[:role]
  when "user" then last_user = idx
  when "tool" then last_tool = idx
  when "assistant"
    direct << [idx, c[:call_id]] if last_tool <= last_user
  end
end
direct.map { |idx, cid| { position: idx, call_id: cid } }
