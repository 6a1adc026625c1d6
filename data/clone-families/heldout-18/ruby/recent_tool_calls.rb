require "time"

history = context[:conversation_history] || []
stamped = history.select { |r| r[:timestamp] }
latest = stamped.map { |r| Time.iso8601(r[:timestamp]) }.max
counts = Hash.new(0)
if latest
  stamped.each do |record|
    next unless record[:role] == "tool"

    method = record[:method_name]
    next if method.nil? || method.empty?
    next if latest - Time.iso8601(record[:timestamp]) > 900

    counts[method] += 1
  end
end
counts
