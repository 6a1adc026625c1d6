history = context.fetch(:conversation_history, nil) || []
failed = ->(r) { r[:outcome_summary].is_a?(Hash) && r[:outcome_summary][:ok] == false }
idx = history.index(&failed)
prompt = idx && history.first(idx).reverse.find { |r| r[:role] == "user" }
prompt && { user_call_id: prompt[:call_id], content: prompt[:content], failed_at: history[idx][:call_id] }
