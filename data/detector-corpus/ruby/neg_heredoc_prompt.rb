prompt = <<~PROMPT
  You can read context[:conversation_history] if you need prior calls.
PROMPT
result = prompt.lines.map(&:strip).reject(&:empty?).size
