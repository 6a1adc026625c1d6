messages = context[:conversation_history] || []
by_role = messages.each_with_object({}) do |message, acc|
  speaker_role = message[:role]
  next if speaker_role.to_s.empty?

  counts = (acc[speaker_role] ||= Hash.new(0))
  counts[message[:content].class.name] += 1
end
by_role
