require "time"

history = context.fetch(:conversation_history, nil) || []
stamped = history.select { |step| step[:timestamp].is_a?(String) && !step[:timestamp].empty? }
by_date = stamped.group_by { |step| Time.iso8601(step[:timestamp]).utc.strftime("%Y-%m-%d") }
by_date.transform_values(&:size).sort_by { |date, _| date }
