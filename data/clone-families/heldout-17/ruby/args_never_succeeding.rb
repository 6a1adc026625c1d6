history = context[:conversation_history] || []
failed = []
succeeded = []
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  outcome = rec[:outcome_summary] || {}
  args = (rec[:args] || []).grep(String)
  if outcome[:ok] == false
    failed |= args
  elsif outcome[:ok] == true
    succeeded |= args
  end
end
failed - succeeded
