require "time"

records = context[:conversation_history] || []
idle = {}
unless records.empty?
  ending = Time.iso8601(records.last[:timestamp])
  records.reverse_each do |r|
    m = r[:method_name]
    next if m.nil? || m.empty? || idle.key?(m)
    idle[m] = ((ending - Time.iso8601(r[:timestamp])) / 60.0).round(1)
  end
end
Agent::Outcome.ok(idle)
