def describe(rec)
  what = rec[:method_name] ? "called #{rec[:method_name]}" : "said #{rec[:content].inspect}"
  ok = rec.dig(:outcome_summary, :ok)
  suffix = ok.nil? ? "" : (ok ? " (ok)" : " (failed)")
  "#{rec[:speaker]} #{what}#{suffix}"
end

records = context[:conversation_history] || []
result = records.collect { |rec| describe(rec) }.join("; ")
