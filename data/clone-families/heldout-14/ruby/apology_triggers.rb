history = context[:conversation_history] || []
cues = ["sorry", "apolog", "my mistake"]
triggers = []
history.each_with_index do |rec, i|
  next unless rec[:role] == "assistant"
  next if i.zero?

  text = rec[:content].to_s.downcase
  before = history[i - 1][:call_id]
  triggers << before if cues.any? { |cue| text.include?(cue) } && !triggers.include?(before)
end
triggers
