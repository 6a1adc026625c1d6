log = context[:conversation_history] || []
turn_count = 0
turns_with = Hash.new { |h, k| h[k] = [] }
log.each do |entry|
  if entry[:role] == "user"
    turn_count += 1
    next
  end
  next if turn_count.zero?
  method = entry[:method_name]
  next if method.nil? || method.empty?
  turns_with[method] << turn_count unless turns_with[method].include?(turn_count)
end
every_turn = turns_with.select { |_m, turns| turns.size == turn_count }.keys.sort
{ user_turns: turn_count, methods_in_every_turn: every_turn }
