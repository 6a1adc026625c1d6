records = context[:conversation_history] || []
acc = records.inject({}) do |memo, r|
  key = r[:method_name]
  memo[key] ||= { calls: 0, ok: 0 }
  memo[key][:calls] += 1
  memo[key][:ok] += 1 if (r[:outcome_summary] || {})[:ok] == true
  memo
end
result = acc.map { |k, v| { method: k, calls: v[:calls], success_rate: (v[:ok].to_f / v[:calls]).round(2) } }
