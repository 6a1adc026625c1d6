history = context[:conversation_history] || []
turns = []
history.each do |rec|
  if rec[:role] == "user"
    turns << []
  elsif turns.any? && rec[:method_name] && !rec[:method_name].empty?
    turns.last << rec[:method_name]
  end
end
together = Hash.new(0)
turns.each do |methods|
  methods.each_cons(2).each { |a, b| together[[a, b].sort.join(" + ")] += 1 unless a == b }
end
together
