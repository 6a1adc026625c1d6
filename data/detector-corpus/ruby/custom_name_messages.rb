# Host configuration: history_names: ["messages"]
tool_msgs = messages.select { |m| m[:speaker] == "tool" }
result = tool_msgs.size
