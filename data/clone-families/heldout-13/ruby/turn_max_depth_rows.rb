history = context[:conversation_history] || []
turns = history.each_with_object([]) do |h, acc|
  if h[:role] == "user"
    acc << { user: h[:call_id], started: h[:timestamp], records: 0, max_depth: nil }
  end
  next if acc.empty?
  turn = acc.last
  turn[:records] += 1
  d = h[:depth]
  turn[:max_depth] = d if d.is_a?(Integer) && (turn[:max_depth].nil? || d > turn[:max_depth])
end
turns.reject { |t| t[:max_depth].nil? }
