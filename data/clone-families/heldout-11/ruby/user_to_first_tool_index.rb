require "time"

records = context[:conversation_history] || []
user_positions = records.each_index.select { |i| records[i][:role] == "user" }
latencies = []
user_positions.each_with_index do |pos, n|
  stop = user_positions[n + 1] || records.size
  tool = records[(pos + 1)...stop].find { |r| r[:role] == "tool" }
  next if tool.nil?
  latencies << {
    user_call: records[pos][:call_id],
    tool_call: tool[:call_id],
    seconds: (Time.iso8601(tool[:timestamp]) - Time.iso8601(records[pos][:timestamp])).to_i
  }
end
latencies
