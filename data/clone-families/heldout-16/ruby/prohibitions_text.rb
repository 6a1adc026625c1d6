history = Array(context[:conversation_history])
lines = []
history.each do |step|
  next unless step[:role] == "user"
  body = step[:content]
  next unless body.is_a?(String) && !body.strip.empty?

  body.scan(/\b(?:don['’]t|do not|never)\s+([^.!?\n]+)/i).each do |match|
    lines << "- (#{step[:call_id]}) do not #{match.first.strip}"
  end
end
Agent::Outcome.ok(lines.empty? ? "The user gave no prohibitions." : "User prohibitions:\n" + lines.join("\n"))
