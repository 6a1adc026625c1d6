# Summarise how deep each speaker usually works in the call tree.
history = context[:conversation_history] || []

grouped = history.inject(Hash.new { |h, k| h[k] = [] }) do |memo, entry|
  memo[entry[:speaker]] << (entry[:depth] || 0)
  memo
end

rows = grouped.map do |speaker, depths|
  { speaker: speaker, mean_depth: depths.sum.fdiv(depths.size), max_depth: depths.max, records: depths.size }
end

Agent::Outcome.ok(rows.sort_by { |row| -row[:mean_depth] })
