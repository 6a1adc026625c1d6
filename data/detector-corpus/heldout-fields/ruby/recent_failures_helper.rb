def failure?(record)
  outcome = record[:outcome_summary] || {}
  outcome[:ok] == false || outcome[:status] == "error"
end

history = context[:conversation_history] || []
result = history.last(6).count { |r| failure?(r) }
