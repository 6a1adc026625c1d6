SEVERITY = %w[ERROR WARNING WARN INFO DEBUG].freeze

msgs = context[:conversation_history] || []
found = Hash.new(0)
msgs.each do |msg|
  next if msg[:role] != "tool"
  next unless msg[:content].is_a?(String)

  msg[:content].scan(/\b(#{SEVERITY.join('|')})\b/).flatten.each { |lvl| found[lvl] += 1 }
end
text = found.empty? ? "Tool output has no log levels." : SEVERITY.select { |l| found.key?(l) }.map { |l| "#{l}: #{found[l]}" }.join(", ")
Agent::Outcome.ok(text)
