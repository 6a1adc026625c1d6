require "time"

history = context[:conversation_history] || []
stamped = history.select { |r| r[:timestamp] }
earliest = stamped.map { |r| Time.iso8601(r[:timestamp]) }.min
counts = Hash.new(0)
if earliest
  stamped.each do |record|
    next unless record[:role] == "tool"

    method = record[:method_name]
    next if method.nil? || method.empty?
    next if Time.iso8601(record[:timestamp]) - earliest > 900

    counts[method] += 1
  end
end
counts
