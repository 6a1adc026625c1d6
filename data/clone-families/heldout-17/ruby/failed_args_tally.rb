history = context[:conversation_history] || []
failed_calls = history.select do |r|
  !r[:method_name].to_s.empty? && r[:outcome_summary].is_a?(Hash) && r[:outcome_summary][:ok] == false
end
failed_calls.flat_map { |r| (r[:args] || []).select { |a| a.is_a?(String) }.uniq }.tally
