history = Array(context[:conversation_history])
apology = lambda do |text|
  t = text.to_s.downcase
  %w[sorry apolog].any? { |w| t.include?(w) } || t.include?("my mistake")
end
by_goal = history
  .select { |h| h[:role] == "assistant" && apology.call(h[:content]) }
  .group_by { |h| h[:goal].to_s.empty? ? "(no goal)" : h[:goal] }
  .transform_values { |rs| rs.map { |r| r[:call_id] } }
Agent::Outcome.ok(by_goal)
