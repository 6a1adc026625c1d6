require "time"

history = context[:conversation_history] || []
turns = history.slice_before { |r| r[:role] == "user" }.select { |turn| turn.first[:role] == "user" }
lines = turns.map do |turn|
  asker = turn.first
  first_tool = turn.drop(1).detect { |r| r[:role] == "tool" }
  if first_tool
    gap = (Time.parse(first_tool[:timestamp]) - Time.parse(asker[:timestamp])).round
    "#{asker[:call_id]}: first tool call #{first_tool[:method_name]} after #{gap}s"
  else
    "#{asker[:call_id]}: no tool call"
  end
end
lines.join("\n")
