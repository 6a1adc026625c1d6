history = context[:conversation_history] || []
statuses = {}
history.each do |rec|
  outcome = rec[:outcome_summary] || {}
  next unless outcome[:ok] == false

  method = rec[:method_name].to_s
  status = outcome[:status].to_s
  next if method.empty? || status.empty?

  list = (statuses[method] ||= [])
  list << status unless list.include?(status)
end
statuses
