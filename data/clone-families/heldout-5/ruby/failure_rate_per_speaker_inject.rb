hist = context[:conversation_history] || []

counts = hist.inject({}) do |memo, e|
  k = e[:speaker]
  prev = memo.fetch(k, { calls: 0, errors: 0 })
  failed = e.dig(:outcome_summary, :error_type) ? 1 : 0
  memo.merge(k => { calls: prev[:calls] + 1, errors: prev[:errors] + failed })
end

Agent::Outcome.ok(counts.transform_values { |v| { rate: v[:errors].to_f / v[:calls], calls: v[:calls] } })
