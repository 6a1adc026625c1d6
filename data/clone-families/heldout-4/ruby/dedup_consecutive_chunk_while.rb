calls = context[:conversation_history] || []
calls
  .chunk_while { |a, b| a[:method] == b[:method] && a[:args] == b[:args] }
  .map { |run| { method: run.first[:method], args: run.first[:args], repeats: run.size } }
