history = context[:conversation_history] || []
turns = history.slice_before { |h| h[:role] == "user" }
answered_directly = turns.flat_map do |turn|
  tool_seen = false
  turn.filter_map do |h|
    tool_seen ||= h[:role] == "tool"
    h[:call_id] if h[:role] == "assistant" && !tool_seen
  end
end
{ direct_replies: answered_directly, assistant_records: history.count { |h| h[:role] == "assistant" } }
