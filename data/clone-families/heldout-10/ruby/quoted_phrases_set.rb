require "set"

log = context[:conversation_history] || []
quoted = Set.new
log.each do |entry|
  next if entry[:speaker] != "user" || entry[:content].nil?
  entry[:content].scan(/"(.+?)"/).each { |m| quoted << m.first }
end
quoted.empty? ? "no quoted phrases" : "quoted: #{quoted.to_a.join('; ')}"
