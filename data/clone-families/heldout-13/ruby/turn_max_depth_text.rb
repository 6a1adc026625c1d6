history = context[:conversation_history] || []
report = []
turn_id = nil
levels = []
flush = lambda do
  report << "turn #{turn_id} went #{levels.max} level(s) deep" if turn_id && !levels.empty?
end
history.each do |entry|
  if entry[:role] == "user"
    flush.call
    turn_id = entry[:call_id]
    levels = []
  end
  levels << entry[:depth] if turn_id && entry[:depth].is_a?(Integer)
end
flush.call
report.empty? ? "no user turns yet" : report.join("\n")
