require "time"

steps = Array(context[:conversation_history])
last_user_at = nil
lines = []
steps.each do |step|
  next if step[:role] != "user" || step[:timestamp].nil?

  t = Time.iso8601(step[:timestamp])
  if last_user_at
    gap = t - last_user_at
    lines << "#{step[:call_id]} came #{gap.round(1)}s after the previous user message" if gap <= 10
  end
  last_user_at = t
end
lines.empty? ? "No rapid follow-up messages from the user." : lines.join("\n")
