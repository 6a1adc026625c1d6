apology = /sorry|apolog|my mistake/i
records = context[:conversation_history] || []
hits = records.select { |r| r[:role] == "assistant" && r[:content].to_s.match?(apology) }
Agent::Outcome.ok({ count: hits.size, call_ids: hits.map { |r| r[:call_id] } })
