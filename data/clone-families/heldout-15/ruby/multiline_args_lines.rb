found = {}
(context.fetch(:conversation_history, nil) || []).each do |call|
  next if call[:method_name].to_s.empty?

  blocks = Array(call[:args]).grep(String).select { |s| s.count("\n").positive? }
  found[call[:call_id]] = blocks.map { |s| s.count("\n") + 1 }.max unless blocks.empty?
end
Agent::Outcome.ok(found)
