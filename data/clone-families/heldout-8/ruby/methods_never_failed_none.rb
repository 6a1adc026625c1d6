turns = context[:conversation_history] || []
names = turns.map { |t| t[:method_name].to_s }.reject(&:empty?).uniq
never = names.select do |name|
  turns.none? { |t| t[:method_name] == name && t.dig(:outcome_summary, :status) != "ok" }
end
Agent::Outcome.ok(never.sort)
