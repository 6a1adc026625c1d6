history = context[:conversation_history] || []
history.each_with_object({}) do |record, longest|
  outcome = record[:outcome_summary] || {}
  message = outcome[:error_message]
  next unless outcome[:ok] == false && message.is_a?(String) && message.length > 80
  next if record[:method_name].to_s.empty?

  longest[record[:method_name]] = [longest.fetch(record[:method_name], 0), message.length].max
end
