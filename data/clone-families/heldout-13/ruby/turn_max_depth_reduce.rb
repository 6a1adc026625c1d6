records = context[:conversation_history] || []
_, maxima = records.reduce([nil, {}]) do |(owner, acc), r|
  owner = r[:call_id] if r[:role] == "user"
  depth = r[:depth]
  if owner && depth.is_a?(Integer)
    acc[owner] = depth if !acc.key?(owner) || depth > acc[owner]
  end
  [owner, acc]
end
Agent::Outcome.ok(maxima.sort_by { |_id, d| -d }.map { |id, d| { turn: id, max_depth: d } })
