require "time"

history = context[:conversation_history] || []
spent = Hash.new(0.0)
history.each_cons(2) do |previous, current|
  next unless current[:method_name]
  spent[current[:method_name]] += Time.parse(current[:timestamp]) - Time.parse(previous[:timestamp])
end
spent
