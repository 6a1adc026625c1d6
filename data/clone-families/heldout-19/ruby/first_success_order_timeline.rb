history = context[:conversation_history] || []
timeline = history.each_with_object({}) do |rec, acc|
  ok = rec[:outcome_summary] && rec[:outcome_summary][:ok]
  name = rec[:method_name]
  acc[name] ||= rec[:call_id] if ok == true && name && !name.empty?
end
Agent::Outcome.ok(timeline.map { |name, call_id| { method: name, first_success: call_id } })
