turns = context.fetch(:conversation_history, nil) || []
labels = turns.each_with_object(Hash.new(0)) do |turn, acc|
  next unless turn[:role] == "user" && turn[:content].is_a?(String)

  turn[:content].scan(/\[([A-Za-z][\w-]*)\]/).flatten.each do |label|
    acc[label.downcase] += 1
  end
end
Agent::Outcome.ok(labels)
