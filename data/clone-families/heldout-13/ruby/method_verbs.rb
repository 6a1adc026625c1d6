history = context[:conversation_history] || []
verbs = Hash.new(0)
history.each do |rec|
  name = rec[:method_name].to_s
  next if name.empty?
  verbs[name.split("_").first] += 1
end
verbs.sort_by { |verb, n| [-n, verb] }.to_h
