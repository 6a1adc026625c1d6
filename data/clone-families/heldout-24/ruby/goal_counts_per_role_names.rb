log = context[:conversation_history] || []
by_role = Hash.new { |h, k| h[k] = [] }
log.each do |item|
  target = item[:goal]
  speaker_role = item[:role]
  next unless speaker_role.is_a?(String) && !speaker_role.empty? && target.is_a?(String) && !target.empty?

  by_role[speaker_role] << target unless by_role[speaker_role].include?(target)
end
by_role.transform_values(&:size)
