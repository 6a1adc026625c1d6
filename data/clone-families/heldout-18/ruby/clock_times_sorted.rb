TIME_OF_DAY = /\b(?:[01]?\d|2[0-3]):[0-5]\d\b/ unless defined?(TIME_OF_DAY)

user_texts = Array(context[:conversation_history]).filter_map do |entry|
  entry[:content] if entry[:role] == "user" && entry[:content].is_a?(String)
end
mentions = Hash.new(0)
user_texts.each do |text|
  text.scan(TIME_OF_DAY).each { |t| mentions[t] += 1 }
end
minutes = ->(t) { h, m = t.split(":").map(&:to_i); h * 60 + m }
Agent::Outcome.ok(mentions.sort_by { |t, _| [minutes.(t), t] }.map { |t, n| { time: t, mentions: n } })
