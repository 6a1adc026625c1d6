msgs = context[:conversation_history] || []
out = []
msgs.each do |m|
  next unless m[:role] == "user"
  next unless (body = m[:content]).is_a?(String)

  hits = body.scan(/(\d+)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/i)
  next if hits.empty?

  secs = hits.inject(0) { |acc, (n, u)| acc + n.to_i * { "h" => 3600, "m" => 60, "s" => 1 }.fetch(u[0].downcase) }
  out << "#{m[:call_id]}: #{hits.map { |n, u| "#{n} #{u}" }.join(' + ')} = #{secs} s"
end
Agent::Outcome.ok(out.empty? ? "The user mentioned no durations." : out.join("\n"))
