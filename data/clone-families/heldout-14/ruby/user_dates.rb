history = context[:conversation_history] || []
dates = []
history.each do |rec|
  next unless rec[:role] == "user"

  rec[:content].to_s.scan(/\b\d{4}-\d{2}-\d{2}\b/) do |date|
    dates << date unless dates.include?(date)
  end
end
dates
