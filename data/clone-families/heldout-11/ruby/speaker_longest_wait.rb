require "time"

history = context[:conversation_history] || []
previous_time = nil
longest = {}
history.each do |rec|
  speaker = rec[:speaker].to_s
  now = Time.parse(rec[:timestamp])
  if !speaker.empty? && previous_time
    gap = now - previous_time
    longest[speaker] = gap if longest[speaker].nil? || gap > longest[speaker]
  end
  previous_time = now
end
longest
