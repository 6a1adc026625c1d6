history = context.fetch(:conversation_history, nil) || []
linked = history.reject { |r| r[:parent_call_id].to_s.empty? }
linked.group_by { |r| r[:parent_call_id] }
      .select { |_parent, kids| kids.size == 1 }
      .map { |_parent, kids| kids.first[:call_id] }
