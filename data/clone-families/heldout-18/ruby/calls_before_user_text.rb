history = Array(context[:conversation_history])
early = []
history.each do |step|
  break if step[:role] == "user"

  early << "#{step[:call_id]}: #{step[:method_name]}" if step[:method_name].is_a?(String) && !step[:method_name].empty?
end
if early.empty?
  "No method was called before the first user message."
else
  "Called before the user spoke (#{early.size}):\n" + early.join("\n")
end
