require "time"

history = context[:conversation_history] || []
state = history.each_with_object({ turn: nil, last: nil, out: {} }) do |r, st|
  t = Time.iso8601(r[:timestamp]).to_f
  if r[:role] == "user"
    st[:turn] = r[:call_id]
  elsif st[:turn]
    gap = t - st[:last]
    cur = st[:out][st[:turn]]
    st[:out][st[:turn]] = [r[:call_id], gap] if cur.nil? || gap > cur[1]
  end
  st[:last] = t
end
Agent::Outcome.ok(state[:out].map { |turn, (id, secs)| "#{turn} -> #{id} (#{secs.round}s)" })
