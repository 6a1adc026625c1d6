snapshot = { conversation_history: [], memory: context[:memory] }
result = snapshot.keys.map(&:to_s)
