history = context[:conversation_history] || []
deepest = history.max_by { |r| r[:depth].to_i }
result = deepest && { call_id: deepest[:call_id], parent: deepest[:parent_call_id] }
