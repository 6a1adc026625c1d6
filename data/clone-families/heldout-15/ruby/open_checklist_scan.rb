records = context.fetch(:conversation_history, nil) || []
done = {}
records.each do |r|
  next if r[:role] != "assistant"

  body = r[:content]
  next unless body.is_a?(String)

  body.scan(/^[ \t]*[-*][ \t]+\[([ xX])\][ \t]+(.*\S)/).each do |mark, text|
    done[text] = mark.strip != ""
  end
end
Agent::Outcome.ok(done.keys.reject { |t| done[t] })
