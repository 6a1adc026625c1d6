def failed?(record)
  summary = record[:outcome_summary]
  summary.is_a?(Hash) && summary[:ok] == false
end

attempt = (context[:attempt] || 0) + 1
list = context[:conversation_history] || []
i = 0
i += 1 while i < list.length && !failed?(list[i])
msg = i < list.length ? list[i][:outcome_summary][:error_message] : nil
result = { error_message: msg, attempt: attempt }
