history = context[:conversation_history] || []
blocks = []
history.each_with_index do |rec, i|
  next unless rec[:role] == "assistant" && rec[:content].is_a?(String)
  rec[:content].lines.each do |l|
    m = /\A```(?<lang>[A-Za-z0-9]+)/.match(l)
    blocks << { lang: m[:lang], at: i } if m
  end
end
total = blocks.size
blocks.group_by { |b| b[:lang] }.map do |lang, bs|
  { language: lang, blocks: bs.size, share: total.zero? ? 0 : (bs.size.to_f / total).round(3) }
end
