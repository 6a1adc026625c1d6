history = context[:conversation_history] || []
last_tool = history.reverse.detect { |r| r[:speaker] == "tool" }
result = last_tool && last_tool[:outcome_summary][:value_class]
