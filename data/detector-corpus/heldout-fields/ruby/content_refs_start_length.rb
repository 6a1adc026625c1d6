history = context[:conversation_history] || []
refs = (history[-3, 3] || []).map { |r| r[:outcome_summary]&.fetch(:content_ref, nil) }
result = { refs: refs.compact, roles: history.last(2).map { |r| r[:role] } }
