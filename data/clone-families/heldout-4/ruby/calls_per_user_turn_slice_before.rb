turns = context[:conversation_history] || []
segments = turns.slice_before { |t| t[:role] == 'user' }.select { |seg| seg.first[:role] == 'user' }
segments.map { |seg| { user_message: seg.first[:content], follow_up_records: seg.size - 1 } }
