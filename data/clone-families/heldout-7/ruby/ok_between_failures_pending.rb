entries = context[:conversation_history] || []
seen_failure = false
pending = 0
total = 0
entries.each do |e|
  if e.fetch(:outcome_summary, {})[:status] == "ok"
    pending += 1 if seen_failure
  else
    total += pending
    pending = 0
    seen_failure = true
  end
end
"#{total} successful calls between the first and last failure"
