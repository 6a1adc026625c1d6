history = context[:conversation_history] || []
state = history.each_with_object({}) do |step, acc|
  method = step[:method_name]
  next if method.to_s.empty?
  entry = acc[method] ||= { tries: 0, done: false }
  next if entry[:done]
  entry[:tries] += 1
  entry[:done] = true if step.dig(:outcome_summary, :status) == "ok"
end
state.map do |method, entry|
  if entry[:done]
    "#{method}: succeeded on attempt #{entry[:tries]}"
  else
    "#{method}: never succeeded (#{entry[:tries]} attempts)"
  end
end.join("\n")
