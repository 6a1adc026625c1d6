require "time"

entries = context[:conversation_history] || []
by_second = Hash.new { |h, k| h[k] = [] }
entries.each_with_index do |e, i|
  by_second[Time.iso8601(e[:timestamp]).to_i] << [i, e[:call_id]]
end
result = by_second.values.select { |pairs| pairs.size > 1 }.map do |pairs|
  { at: entries[pairs.first[0]][:timestamp], call_ids: pairs.map(&:last) }
end
Agent::Outcome.ok(result)
