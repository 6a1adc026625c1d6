records = context[:conversation_history] || []
bursts = records.chunk { |r| r[:role] == "tool" }.select { |is_tool, _| is_tool }.map { |_, group| group.size }
Agent::Outcome.ok({ bursts: bursts, longest: bursts.max || 0 })
