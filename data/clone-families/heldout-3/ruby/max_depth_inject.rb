deepest = (context[:conversation_history] || []).inject(0) do |best, entry|
  d = entry[:depth].to_i
  d > best ? d : best
end
result = { max_depth: deepest }
