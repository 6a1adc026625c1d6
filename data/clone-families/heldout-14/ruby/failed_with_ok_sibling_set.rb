require "set"

history = context[:conversation_history] || []
ok_pairs = Set.new
history.each do |step|
  next if step[:parent_call_id].to_s.empty? || step[:method_name].to_s.empty?

  ok_pairs << [step[:parent_call_id], step[:method_name]] if step[:outcome_summary]&.dig(:ok)
end
rescued = history.select do |step|
  step[:outcome_summary].is_a?(Hash) && step[:outcome_summary][:ok] == false &&
    ok_pairs.include?([step[:parent_call_id], step[:method_name]])
end
{
  failures_with_successful_sibling: rescued.map { |s| s[:call_id] },
  parents: rescued.map { |s| s[:parent_call_id] }.uniq
}
