history = context[:conversation_history] || []
latest = {}
history.each do |record|
  speaker = record[:speaker]
  outcome = record[:outcome_summary] || {}
  next if speaker.nil? || speaker.empty?
  next unless outcome[:ok] == false

  type = outcome[:error_type]
  next if type.nil? || type.empty?

  latest[speaker] = type
end
latest
