log = context.fetch(:conversation_history, nil) || []
start = [log.length - 5, 0].max
tail = log[start..-1] || []
clean = tail.none? { |h| h[:outcome_summary].nil? || h[:outcome_summary][:ok] != true }
result = clean ? "last #{tail.length} calls succeeded" : "recent failure detected"
