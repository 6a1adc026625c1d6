history = context[:conversation_history] || []
by_speaker = {}
history.each do |record|
  speaker = record[:speaker]
  outcome = record[:outcome_summary] || {}
  next if speaker.nil? || speaker.empty?
  next unless outcome[:ok] == false

  type = outcome[:error_type]
  next if type.nil? || type.empty?

  by_speaker[speaker] ||= []
  by_speaker[speaker] << type unless by_speaker[speaker].include?(type)
end
by_speaker
