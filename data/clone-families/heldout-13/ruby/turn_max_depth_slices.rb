history = context[:conversation_history] || []
turns = history.slice_before { |r| r[:role] == "user" }.select { |chunk| chunk.first[:role] == "user" }
per_turn = turns.filter_map do |chunk|
  depths = chunk.map { |r| r[:depth] }.grep(Integer)
  [chunk.first[:call_id], depths.max] unless depths.empty?
end
Agent::Outcome.ok(per_turn.to_h)
