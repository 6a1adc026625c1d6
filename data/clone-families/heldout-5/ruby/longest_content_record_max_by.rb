recs = context[:conversation_history] || []
top = recs.max_by { |r| r[:content].to_s.size }
top ? { call_id: top[:call_id], chars: top[:content].to_s.size, speaker: top[:speaker] } : nil
