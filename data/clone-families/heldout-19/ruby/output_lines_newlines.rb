def line_count(text)
  return 0 if text.empty?

  text.count("\n") + (text.end_with?("\n") ? 0 : 1)
end

history = context[:conversation_history] || []
stats = Hash.new { |h, k| h[k] = [0, 0] }
history.each do |r|
  next unless r[:role] == "tool" && r[:content].is_a?(String) && r[:method_name] && !r[:method_name].empty?

  stats[r[:method_name]][0] += line_count(r[:content])
  stats[r[:method_name]][1] += 1
end
Agent::Outcome.ok(stats.map { |name, (lines, n)| { method: name, outputs: n, mean_lines: (lines.to_f / n).round(1) } })
