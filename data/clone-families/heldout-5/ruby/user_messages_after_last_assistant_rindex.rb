history = context[:conversation_history] || []

last_assistant = history.rindex { |rec| rec[:speaker] == "assistant" }
start = last_assistant ? last_assistant + 1 : 0
history[start..].select { |rec| rec[:speaker] == "user" }.map { |rec| rec[:content] }
