entries = context[:conversation_history] || []
upcoming_ok = nil
mapping = []
entries.reverse_each do |e|
  failed = e.dig(:outcome_summary, :ok) == false
  if failed
    mapping.unshift([e[:call_id], upcoming_ok])
  elsif e[:method_name].to_s != ""
    upcoming_ok = e[:call_id]
  end
end
Agent::Outcome.ok({ recoveries: mapping.to_h, unrecovered: mapping.count { |_, ok_id| ok_id.nil? } })
