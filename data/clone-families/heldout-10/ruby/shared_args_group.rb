calls = (context[:conversation_history] || []).select do |c|
  c[:args].is_a?(Array) && !c[:args].empty? && !c[:method_name].to_s.empty?
end
shared = calls.group_by { |c| c[:args] }
              .map { |args, group| { args: args, methods: group.map { |c| c[:method_name] }.uniq.sort } }
              .select { |row| row[:methods].length >= 2 }
Agent::Outcome.ok(shared)
