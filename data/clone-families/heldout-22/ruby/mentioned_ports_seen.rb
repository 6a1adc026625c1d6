ports = []
log = context[:conversation_history] || []
log.each do |item|
  content = item[:content]
  next unless content.is_a?(String)

  content.scan(/\b(?:localhost|127\.0\.0\.1):(\d{2,5})\b/).each do |(port)|
    ports << port.to_i
  end
end
ports.uniq
