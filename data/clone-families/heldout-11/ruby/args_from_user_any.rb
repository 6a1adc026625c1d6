records = context[:conversation_history] || []
records.each_with_index.select do |rec, i|
  next false if rec[:method_name].nil? || rec[:method_name].empty?
  said = records.first(i).select { |r| r[:role] == "user" }.map { |r| r[:content] }.compact
  Array(rec[:args]).grep(String).reject(&:empty?).any? { |arg| said.any? { |text| text.include?(arg) } }
end.map { |rec, _i| rec[:call_id] }
