records = context[:conversation_history] || []
records
  .select { |r| r[:content].is_a?(String) }
  .flat_map { |r| r[:content].scan(/\b(TODO|FIXME)\b:?[ \t]*(.*)$/).map { |kind, note| { call_id: r[:call_id], role: r[:role], marker: kind, note: note.strip } } }
