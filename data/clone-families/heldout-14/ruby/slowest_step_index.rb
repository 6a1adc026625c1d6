require "time"

recs = context[:conversation_history] || []
stamp = ->(i) { Time.parse(recs[i][:timestamp]) }
user_at = recs.each_index.select { |i| recs[i][:role] == "user" }
result = {}
user_at.each_with_index do |start, k|
  stop = (user_at[k + 1] || recs.size) - 1
  next if stop <= start

  best_i = (start + 1..stop).max_by { |i| stamp.(i) - stamp.(i - 1) }
  result[recs[start][:call_id]] = {
    step: recs[best_i][:call_id],
    method: recs[best_i][:method_name],
    gap_seconds: (stamp.(best_i) - stamp.(best_i - 1)).round
  }
end
result
