log = Array(context[:conversation_history])
tally = { short: 0, medium: 0, long: 0 }
log.each { |entry|
  text = entry[:content]
  next unless entry[:role] == "user" && text.is_a?(String)

  if text.length < 40
    tally[:short] += 1
  elsif text.length < 200
    tally[:medium] += 1
  else
    tally[:long] += 1
  end
}
tally
