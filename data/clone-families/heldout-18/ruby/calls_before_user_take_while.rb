log = context.fetch(:conversation_history, nil) || []
preamble = log.take_while { |entry| entry[:role] != "user" }
names = preamble.map { |entry| entry[:method_name] }
names = names.reject { |m| m.nil? || m.to_s.empty? }
Agent::Outcome.ok(names)
