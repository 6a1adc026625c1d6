entries = context[:conversation_history] || []
found = []
entries.each do |entry|
  next unless entry.is_a?(Hash)

  body = entry[:content]
  next unless body.is_a?(String) && body.include?(":")

  body.scan(/\b(?:localhost|127\.0\.0\.1):(\d{2,5})\b/).each do |(number)|
    found << number.to_i
  end
end
found.uniq
