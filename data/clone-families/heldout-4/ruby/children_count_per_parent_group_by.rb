log = context[:conversation_history] || []
delegated = log.select { |e| e[:parent_call_id] }
by_parent = delegated.group_by { |e| e[:parent_call_id] }
by_parent.transform_values(&:count).merge('_total_children' => delegated.size)
