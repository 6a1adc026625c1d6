convo = context[:conversation_history] || []

stats = convo.each_with_object({}) do |h, acc|
  who = h[:speaker] || "unknown"
  acc[who] ||= [0, 0]
  acc[who][0] += 1 if h[:outcome_summary] && h[:outcome_summary][:ok] == false
  acc[who][1] += 1
end

stats.map { |who, (bad, all)| "#{who}: #{bad}/#{all} failed" }.join("\n")
