entries = context[:conversation_history] || []
ok_depths = []
failed_depths = []
for e in entries
  if e.fetch(:outcome_summary, {})[:ok] == false
    failed_depths << e[:depth].to_i
  else
    ok_depths << e[:depth].to_i
  end
end
[
  ["ok", ok_depths.size, ok_depths.empty? ? nil : Rational(ok_depths.sum, ok_depths.size).to_f],
  ["failed", failed_depths.size, failed_depths.empty? ? nil : Rational(failed_depths.sum, failed_depths.size).to_f]
]
