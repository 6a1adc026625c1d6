log = context[:conversation_history] || []
successful_call = ->(e) { e[:method_name] && e[:method_name] != "" && e[:outcome_summary][:ok] == true }
lines = log.each_index.select { |i| log[i][:outcome_summary][:ok] == false }.map do |i|
  nxt = log.drop(i + 1).detect(&successful_call)
  if nxt
    "#{log[i][:call_id]} (#{log[i][:method_name]}) -> recovered at #{nxt[:call_id]} (#{nxt[:method_name]})"
  else
    "#{log[i][:call_id]} (#{log[i][:method_name]}) -> no successful call afterwards"
  end
end
lines.empty? ? "no failures" : lines.join("\n")
