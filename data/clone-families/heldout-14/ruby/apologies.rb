history = context[:conversation_history] || []
cues = ["sorry", "apolog", "my mistake"]
apologetic = []
history.each do |rec|
  next unless rec[:role] == "assistant"

  text = rec[:content].to_s.downcase
  apologetic << rec[:call_id] if cues.any? { |cue| text.include?(cue) }
end
apologetic
