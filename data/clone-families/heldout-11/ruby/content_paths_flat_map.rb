pattern = %r{(?:[\w.-]+/)+[\w-]+\.[A-Za-z0-9]+}
texts = (context[:conversation_history] || []).map { |r| r[:content] }.compact
mentioned = texts.flat_map { |t| t.scan(pattern) }.uniq
mentioned.empty? ? "no file paths mentioned" : mentioned.map { |p| "* #{p}" }.join("\n")
