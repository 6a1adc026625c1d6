history = context[:conversation_history] || []

first_assistant = history.index { |rec| rec[:speaker] == "assistant" }
stop = first_assistant || history.length
history[0...stop].select { |rec| rec[:speaker] == "user" }.map { |rec| rec[:content] }
