records = Array(context[:conversation_history])
records.each_with_object({}) do |r, by_speaker|
  who = r[:speaker]
  what = r[:method_name]
  next unless who.is_a?(String) && !who.empty? && what.is_a?(String) && !what.empty?

  by_speaker[who] ||= Hash.new(0)
  by_speaker[who][what] += 1
end
