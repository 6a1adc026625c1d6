history = context.fetch(:conversation_history, nil) || []
calls = history.reject { |r| r[:speaker].to_s.empty? || r[:method_name].to_s.empty? }
by_speaker = calls.group_by { |r| r[:speaker] }
by_speaker.transform_values do |rs|
  rs.map { |r| r[:method_name] }.tally
end
