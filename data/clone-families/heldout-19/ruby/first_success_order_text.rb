require "set"

history = Array(context[:conversation_history])
done = Set.new
steps = []
history.each do |msg|
  next unless msg[:outcome_summary].is_a?(Hash) && msg[:outcome_summary][:ok] == true
  next if msg[:method_name].to_s.empty? || done.include?(msg[:method_name])

  done << msg[:method_name]
  steps << "#{steps.size + 1}. #{msg[:method_name]} (first succeeded at #{msg[:call_id]})"
end
steps.empty? ? "No method has succeeded yet." : steps.join("\n")
