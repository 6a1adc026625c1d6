calls = (context[:conversation_history] || []).reject { |c| c[:method_name].to_s.empty? }
per_method = calls.group_by { |c| c[:method_name] }
answer = per_method.transform_values do |list|
  first_ok = list.find_index { |c| (c[:outcome_summary] || {})[:ok] == true }
  first_ok && first_ok + 1
end
Agent::Outcome.ok(answer)
