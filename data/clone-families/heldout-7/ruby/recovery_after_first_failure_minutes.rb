to_time = ->(s) { Time.utc(*s.scan(/\d+/).first(6).map(&:to_i)) }
records = context[:conversation_history] || []
tail = records.drop_while { |r| r.fetch(:outcome_summary, {})[:status] == "ok" }
fix = tail.drop(1).find { |r| r.fetch(:outcome_summary, {})[:status] == "ok" }
if tail.empty? || fix.nil?
  "no recovery after the first failure"
else
  mins = (to_time.(fix[:timestamp]) - to_time.(tail.first[:timestamp])) / 60.0
  format("recovered after %.2f min (%s -> %s)", mins, tail.first[:method_name], fix[:method_name])
end
