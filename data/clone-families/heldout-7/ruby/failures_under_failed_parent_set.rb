require "set"

calls = context[:conversation_history] || []
failed_ids = calls.reject { |c| c.dig(:outcome_summary, :ok) == true }.map { |c| c[:call_id] }.to_set
cascade = calls.filter_map do |c|
  next if c.dig(:outcome_summary, :ok) == true
  next unless failed_ids.include?(c[:parent_call_id])
  { call_id: c[:call_id], error_type: c.dig(:outcome_summary, :error_type), parent: c[:parent_call_id] }
end
{ cascading_failures: cascade, count: cascade.size }
