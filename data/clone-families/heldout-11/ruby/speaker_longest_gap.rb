require "time"

history = context[:conversation_history] || []
last_seen = {}
longest = {}
history.each do |rec|
  speaker = rec[:speaker].to_s
  next if speaker.empty?
  now = Time.parse(rec[:timestamp])
  if last_seen.key?(speaker)
    gap = now - last_seen[speaker]
    longest[speaker] = gap if longest[speaker].nil? || gap > longest[speaker]
  end
  last_seen[speaker] = now
end
longest
