codes = { "$" => "USD", "€" => "EUR", "£" => "GBP" }
records = context.fetch(:conversation_history, nil) || []
sums = records.each_with_object({}) do |r, acc|
  next unless r[:role] == "assistant" && r[:content].is_a?(String)

  r[:content].scan(/([$€£])\s?(\d+(?:,\d{3})*(?:\.\d+)?)/).each do |sym, num|
    code = codes[sym]
    acc[code] = (acc[code] || 0) + num.tr(",", "").to_f
  end
end
sums.transform_values { |v| v.round(2) }
