entries = context[:conversation_history] || []
ids = entries.map { |e| e[:call_id] }
parent_ids = entries.filter_map { |e| e[:parent_call_id] }.uniq
leaf_ids = ids - parent_ids
Agent::Outcome.ok({ leaves: leaf_ids, leaf_count: leaf_ids.size, total: ids.size })
