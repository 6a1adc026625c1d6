records = context[:conversation_history] || []
families = records
  .reject { |r| r[:parent_call_id].to_s.empty? || r[:method_name].to_s.empty? }
  .group_by { |r| [r[:parent_call_id], r[:method_name]] }
ids = families.values.flat_map do |siblings|
  next [] unless siblings.any? { |s| s.dig(:outcome_summary, :ok) == true }

  siblings.select { |s| s.dig(:outcome_summary, :ok) == false }.map { |s| s[:call_id] }
end
Agent::Outcome.ok(ids)
