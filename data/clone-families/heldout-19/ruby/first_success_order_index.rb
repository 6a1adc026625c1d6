history = context[:conversation_history] || []
first_ok = {}
history.each_with_index do |call, i|
  next unless (call[:outcome_summary] || {})[:ok] == true
  next if call[:method_name].nil? || call[:method_name] == ""

  first_ok[call[:method_name]] ||= i
end
first_ok.sort_by { |_m, i| i }.map { |m, i| { method: m, position: i } }
