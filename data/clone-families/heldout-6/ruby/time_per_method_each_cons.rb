require "time"

history = context[:conversation_history] || []
spent = Hash.new(0.0)
history.each_cons(2) do |current, following|
  next unless current[:method_name]
  spent[current[:method_name]] += Time.parse(following[:timestamp]) - Time.parse(current[:timestamp])
end
spent
