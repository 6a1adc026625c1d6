require "time"

history = context[:conversation_history] || []
stamped = history.select { |r| r[:timestamp] }
latest = stamped.map { |r| Time.iso8601(r[:timestamp]) }.max
messages = []
if latest
  stamped.each do |record|
    next unless record[:role] == "user" && record[:content].is_a?(String)
    next if Time.iso8601(record[:timestamp]).utc.strftime("%F") != latest.utc.strftime("%F")

    messages << record[:content]
  end
end
messages
