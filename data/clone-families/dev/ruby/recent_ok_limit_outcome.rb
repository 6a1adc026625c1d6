# Step 1: Decompose
# - Capability: show the latest successful operations to the caller
limit = 4

lines = (context[:conversation_history] || [])
  .select { |call| call.dig(:outcome_summary, :ok) }
  .last(limit)
  .map do |call|
    shown_args = (call[:args] || []).map(&:to_s).join(", ")
    "#{call[:method_name]}(#{shown_args}) -> #{call.dig(:outcome_summary, :value_class) || 'unknown'}"
  end

result = lines
Agent::Outcome.ok(result)
