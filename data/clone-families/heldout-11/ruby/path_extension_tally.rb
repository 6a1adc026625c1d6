PATH_RE = %r{(?:[\w.-]+/)+[\w-]+\.[A-Za-z0-9]+}

history = context[:conversation_history] || []
extensions = Hash.new(0)
history.each do |rec|
  text = rec[:content]
  next unless text.is_a?(String)
  text.scan(PATH_RE).each { |path| extensions[File.extname(path)] += 1 }
end
extensions
