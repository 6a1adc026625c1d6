require "time"

def stamp(rec)
  Time.strptime(rec[:timestamp], "%Y-%m-%dT%H:%M:%S%z")
end

log = context[:conversation_history] || []
turn_opened = nil
answered = false
minutes = {}
log.each do |entry|
  case entry[:role]
  when "user"
    turn_opened = entry
    answered = false
  when "tool"
    next if turn_opened.nil? || answered
    answered = true
    minutes[turn_opened[:call_id]] = ((stamp(entry) - stamp(turn_opened)) / 60.0).round(2)
  end
end
Agent::Outcome.ok(minutes_to_first_tool: minutes, user_turns: log.count { |e| e[:role] == "user" })
