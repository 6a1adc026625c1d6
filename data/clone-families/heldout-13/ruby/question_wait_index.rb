require "time"

history = context[:conversation_history] || []
user_positions = history.each_index.select { |i| history[i][:role] == "user" }
stamp = ->(rec) { Time.parse(rec[:timestamp]).to_i }

questions = history.each_index.select do |i|
  rec = history[i]
  rec[:role] == "assistant" && rec[:content].is_a?(String) && rec[:content].strip.end_with?("?")
end

questions.each_with_object({}) do |i, acc|
  j = user_positions.bsearch { |pos| pos > i }
  acc[history[i][:call_id]] = stamp.(history[j]) - stamp.(history[i]) if j
end
