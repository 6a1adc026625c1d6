history = context[:conversation_history] || []
nouns = Hash.new(0)
history.each do |rec|
  name = rec[:method_name].to_s
  next if name.empty?
  nouns[name.split("_").last] += 1
end
nouns.sort_by { |noun, n| [-n, noun] }.to_h
