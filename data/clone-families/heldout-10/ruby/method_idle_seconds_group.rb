require "time"

log = context[:conversation_history] || []
stop = log.last && Time.parse(log.last[:timestamp])
latest = log.reject { |e| e[:method_name].to_s.empty? }.group_by { |e| e[:method_name] }.transform_values(&:last)
latest.map { |name, call| [name, (stop - Time.parse(call[:timestamp])).round] }
      .sort_by { |_, secs| -secs }
