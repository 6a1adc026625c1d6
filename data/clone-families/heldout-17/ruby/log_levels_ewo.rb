LEVEL = /\b(DEBUG|INFO|WARN|WARNING|ERROR)\b/

log = context.fetch(:conversation_history, nil) || []
log.each_with_object(Hash.new(0)) do |entry, seen|
  next unless entry[:role] == "tool"

  body = entry[:content]
  body.scan(LEVEL).each { |match| seen[match.first] += 1 } if body.is_a?(String)
end
