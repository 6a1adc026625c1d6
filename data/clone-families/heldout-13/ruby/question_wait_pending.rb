require "time"

log = context[:conversation_history] || []
pending = []
answered = []
log.each do |entry|
  case entry[:role]
  when "assistant"
    pending << entry if entry[:content].is_a?(String) && entry[:content].rstrip.end_with?("?")
  when "user"
    asked_at = Time.iso8601(entry[:timestamp])
    pending.each do |q|
      answered << {
        question: q[:call_id],
        answered_by: entry[:call_id],
        seconds: (asked_at - Time.iso8601(q[:timestamp])).to_i
      }
    end
    pending.clear
  end
end
Agent::Outcome.ok(answered)
