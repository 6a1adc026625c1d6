records = context[:conversation_history] || []
failures = records.select do |rec|
  oc = rec[:outcome_summary]
  !oc.nil? && !oc[:ok]
end
if failures.empty?
  result = "No failures so far."
else
  err = failures.first
  result = "First failure (#{err[:call_id]}): #{err[:outcome_summary][:error_message]}"
end
