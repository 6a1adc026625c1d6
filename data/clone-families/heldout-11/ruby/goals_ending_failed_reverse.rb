require "set"

log = context[:conversation_history] || []
decided = Set.new
failing = []
log.reverse_each do |entry|
  g = entry[:goal]
  next if g.nil? || g == "" || entry[:outcome_summary].nil?
  next unless decided.add?(g)
  failing << g if entry[:outcome_summary][:ok] == false
end
failing.sort
