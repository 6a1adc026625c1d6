history = context[:conversation_history] || []
runs = history.chunk_while { |a, b| a[:speaker] == b[:speaker] }
result = runs.map { |run| [run.first[:speaker], run.length] }
