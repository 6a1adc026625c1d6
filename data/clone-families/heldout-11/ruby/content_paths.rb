PATH_RE = %r{(?:[\w.-]+/)+[\w-]+\.[A-Za-z0-9]+}

history = context[:conversation_history] || []
paths = []
history.each do |rec|
  text = rec[:content]
  next unless text.is_a?(String)
  text.scan(PATH_RE).each { |path| paths << path unless paths.include?(path) }
end
paths
