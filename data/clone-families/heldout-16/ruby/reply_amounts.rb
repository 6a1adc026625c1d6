history = context[:conversation_history] || []
totals = Hash.new(0.0)
history.each do |rec|
  next unless rec[:role] == "assistant"

  body = rec[:content]
  next unless body.is_a?(String)

  body.scan(/([$€£])\s?(\d+(?:,\d{3})*(?:\.\d+)?)/) do |symbol, amount|
    totals[symbol] += amount.delete(",").to_f
  end
end
totals
