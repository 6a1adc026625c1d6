records = context[:conversation_history] || []
empties = records.group_by { |r| r[:role] }.transform_values do |rows|
  rows.count { |r| r[:content].nil? || r[:content].strip.empty? }
end
Agent::Outcome.ok(empties.reject { |_role, n| n.zero? })
