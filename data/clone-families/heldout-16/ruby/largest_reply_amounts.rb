history = context[:conversation_history] || []
largest = {}
history.each do |rec|
  next unless rec[:role] == "assistant"

  body = rec[:content]
  next unless body.is_a?(String)

  body.scan(/([$€£])\s?(\d+(?:,\d{3})*(?:\.\d+)?)/) do |symbol, amount|
    value = amount.delete(",").to_f
    largest[symbol] = [value, rec[:call_id]] if largest[symbol].nil? || value > largest[symbol][0]
  end
end
largest
