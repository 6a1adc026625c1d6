require "set"

log = context[:conversation_history] || []
seen = Hash.new { |h, k| h[k] = Set.new }
turn_no = 0
log.each do |entry|
  if entry[:role] == "user"
    turn_no += 1
  elsif turn_no > 0 && entry[:method_name].to_s != ""
    seen[[entry[:method_name], Array(entry[:args])]] << turn_no
  end
end
repeats = seen.select { |_, turns| turns.size > 1 }.keys
Agent::Outcome.ok(repeats)
