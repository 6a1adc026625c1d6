history = context[:conversation_history] || []

transitions = Hash.new { |h, k| h[k] = [] }
history.each_cons(2) do |prev, cur|
  transitions[prev[:outcome_summary][:status]] |= [cur[:outcome_summary][:status]]
end

transitions.transform_values(&:sort)
