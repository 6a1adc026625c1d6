require "time"

history = context.fetch(:conversation_history, nil) || []
times = history.map { |r| r[:timestamp] && Time.iso8601(r[:timestamp]) }
newest = times.compact.max
cutoff = newest && newest - 24 * 60 * 60
history.each_index.select { |i| cutoff && times[i] && times[i] >= cutoff && history[i][:role] == "user" }
       .map { |i| history[i][:content] }
       .grep(String)
