history = context[:conversation_history] || []
by_goal = Hash.new { |h, g| h[g] = [] }
history.each_with_index do |msg, i|
  g = msg[:goal]
  next if msg[:role] != "assistant" || g.nil? || g.empty?

  by_goal[g] << msg[:call_id] if (msg[:content] || "").downcase.include?(g.downcase)
end
by_goal.empty? ? "replies never name their goal" : by_goal.map { |g, ids| "#{g}: #{ids.join(', ')}" }.join("\n")
