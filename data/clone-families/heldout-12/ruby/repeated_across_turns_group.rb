history = context[:conversation_history] || []
first_user = history.index { |h| h[:role] == "user" }
tagged = []
unless first_user.nil?
  turn = 0
  history[first_user..].each do |h|
    turn += 1 if h[:role] == "user"
    next if h[:role] == "user"
    tagged << [turn, h] unless h[:method_name].to_s.empty?
  end
end
by_sig = tagged.group_by { |_, h| [h[:method_name], h[:args] || []] }
by_sig.filter_map do |sig, rows|
  turns = rows.map(&:first).uniq
  { call: sig[0], args: sig[1], turn_count: turns.length, calls: rows.map { |_, h| h[:call_id] } } if turns.length > 1
end
