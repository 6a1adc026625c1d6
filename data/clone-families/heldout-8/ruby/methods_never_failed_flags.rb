log = context[:conversation_history] || []
reliable = {}
log.each do |entry|
  name = entry[:method_name]
  next if name.nil? || name.empty?
  ok = entry.fetch(:outcome_summary, {})[:ok] ? true : false
  reliable[name] = reliable.fetch(name, true) && ok
end
good = reliable.select { |_, v| v }.keys.sort
"Reliable: #{good.join(', ')} (#{good.size} of #{reliable.size} methods)"
