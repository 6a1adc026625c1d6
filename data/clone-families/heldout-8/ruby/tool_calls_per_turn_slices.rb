msgs = context[:conversation_history] || []
turns = msgs.drop_while { |m| m[:role] != "user" }.slice_before { |m| m[:role] == "user" }
turns.map do |turn|
  asker = turn.first
  { user_call: asker[:call_id], content: asker[:content].to_s[0, 40],
    tool_calls: turn.count { |m| m[:role] == "tool" } }
end
