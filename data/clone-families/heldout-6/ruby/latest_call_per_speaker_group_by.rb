entries = context[:conversation_history] || []
by_speaker = entries.group_by { |e| e.fetch(:speaker, "unknown") }
by_speaker.transform_values { |list| list.last[:call_id] }.sort.to_h
