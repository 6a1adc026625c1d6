convo = context[:conversation_history] || []

first_at = convo.each_with_index.each_with_object({}) do |(h, i), acc|
  next unless h[:outcome_summary] && h[:outcome_summary][:ok] == false
  next if h[:need].to_s.empty?
  acc[h[:need]] ||= { first_call: h[:call_id], index: i }
end

first_at.sort_by { |_, v| v[:index] }.map { |need, v| { need: need, first_call: v[:first_call] } }
