records = context.fetch(:conversation_history, nil) || []
hits = []
records.each_with_index do |r, i|
  next unless r[:role] == "assistant" && r[:content].is_a?(String)

  u = records[0...i].rindex { |x| x[:role] == "user" }
  next if u.nil?

  request = records[u][:content].to_s.strip
  next if request.empty?

  hits << r[:call_id] if r[:content].downcase.include?(request.downcase)
end
Agent::Outcome.ok(hits)
