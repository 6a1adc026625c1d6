log = context[:conversation_history] || []
user_msgs = log.filter_map { |e| e[:content].to_s if e[:role] == "user" }
counts = user_msgs.flat_map { |text| text.downcase.scan(/\S+/) }.tally
"#{counts.keys.size} distinct words in #{user_msgs.size} user messages"
