items = context[:conversation_history] || []
upcoming = nil
qa = []
items.reverse_each do |it|
  if it[:role] == "assistant"
    upcoming = it[:content]
  elsif it[:role] == "user"
    qa.unshift([it[:content], upcoming])
    upcoming = nil
  end
end
qa.map { |q, a| "#{q} => #{a || '-'}" }
