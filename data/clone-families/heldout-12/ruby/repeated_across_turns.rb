history = context[:conversation_history] || []
turns_by_call = {}
turn = nil
history.each do |rec|
  if rec[:role] == "user"
    turn = (turn || 0) + 1
    next
  end
  next if turn.nil?
  method = rec[:method_name]
  next if method.nil? || method.empty?
  signature = [method, rec[:args] || []]
  (turns_by_call[signature] ||= []) << turn
end
turns_by_call.select { |_, turns| turns.uniq.size >= 2 }.map do |(method, args), turns|
  { method: method, args: args, turns: turns.uniq }
end
