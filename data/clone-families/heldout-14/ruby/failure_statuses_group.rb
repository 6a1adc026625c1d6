records = context[:conversation_history] || []
failed = records.select { |r| r.dig(:outcome_summary, :ok) == false && !r[:method_name].to_s.empty? }
grouped = failed.group_by { |r| r[:method_name] }.transform_values do |rs|
  rs.map { |r| r.dig(:outcome_summary, :status) }.compact.reject(&:empty?).uniq.sort
end
Agent::Outcome.ok(grouped.reject { |_m, s| s.empty? })
