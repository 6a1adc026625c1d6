history = context[:conversation_history] || []
latest = nil
history.each do |rec|
  next unless rec[:role] == "user"

  rec[:content].to_s.scan(/\b\d{4}-\d{2}-\d{2}\b/) do |date|
    latest = date if latest.nil? || date > latest
  end
end
latest
