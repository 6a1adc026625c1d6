history = context[:conversation_history] || []
bounds = history.each_index.select { |i| history[i][:role] == "user" }
counts = {}
bounds.each_with_index do |start, k|
  stop = bounds[k + 1] || history.length
  used = history[(start + 1)...stop].map { |h| h[:method_name].to_s }.reject(&:empty?).uniq.sort
  used.each_with_index do |a, i|
    used.each_with_index do |b, j|
      next unless j > i
      counts[[a, b]] = counts.fetch([a, b], 0) + 1
    end
  end
end
counts.map { |(a, b), n| { methods: [a, b], turns: n } }
