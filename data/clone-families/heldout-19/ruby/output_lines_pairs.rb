history = context.fetch(:conversation_history, nil) || []
acc = history.each_with_object({}) do |entry, memo|
  next if entry[:role] != "tool" || !entry[:content].is_a?(String)

  name = entry[:method_name]
  next if name.nil? || name == ""

  memo[name] ||= { outputs: 0, lines: 0 }
  memo[name][:outputs] += 1
  memo[name][:lines] += entry[:content].lines.length
end
acc.map { |name, s| [name, (100.0 * s[:lines] / s[:outputs]).round / 100.0] }
