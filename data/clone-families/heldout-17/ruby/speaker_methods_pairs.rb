msgs = context[:conversation_history] || []
pairs = msgs.filter_map do |m|
  [m[:speaker], m[:method_name]] unless m[:speaker].to_s.empty? || m[:method_name].to_s.empty?
end
rows = pairs.tally.map { |(speaker, method), n| { speaker: speaker, method: method, calls: n } }
Agent::Outcome.ok(rows.sort_by { |row| [row[:speaker], -row[:calls], row[:method]] })
