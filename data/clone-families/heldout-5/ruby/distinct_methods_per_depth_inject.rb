recs = context[:conversation_history] || []
started = Time.now

grouped = recs.inject({}) do |memo, r|
  d = r[:depth].to_i
  memo.merge(d => (memo[d] || []) | [r[:method_name]])
end

elapsed_ms = ((Time.now - started) * 1000).round
Agent::Outcome.ok({ methods_by_depth: grouped.transform_values(&:sort), took_ms: elapsed_ms })
