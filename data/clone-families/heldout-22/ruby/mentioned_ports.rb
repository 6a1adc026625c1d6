history = context[:conversation_history] || []
ports = []
history.each do |record|
  text = record[:content]
  next unless text.is_a?(String)

  text.scan(/\b(?:localhost|127\.0\.0\.1):(\d{2,5})\b/).each do |(port)|
    ports << port.to_i
  end
end
ports.uniq
