history = context[:conversation_history] || []
date_re = /\b(\d{4})-(\d{2})-(\d{2})\b/
mentions = {}
history.each do |msg|
  next if msg[:role] != "user" || msg[:content].nil?

  ds = msg[:content].scan(date_re).map { |y, m, d| "#{y}-#{m}-#{d}" }
  mentions[msg[:call_id]] = ds.uniq unless ds.empty?
end
{ dates: mentions.values.flatten.uniq, by_message: mentions }
