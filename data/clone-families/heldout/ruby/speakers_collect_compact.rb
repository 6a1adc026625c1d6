history = context[:conversation_history] || []
participants = history.collect { |rec| rec[:speaker] }.compact.uniq
result = { participants: participants, count: participants.length }
