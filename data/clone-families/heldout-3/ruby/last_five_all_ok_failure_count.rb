calls = context[:conversation_history] || []
window = calls.last(5)
failures = window.count do |c|
  outcome = c[:outcome_summary] || {}
  !outcome[:ok]
end
result = { healthy: failures.zero?, checked: window.size }
