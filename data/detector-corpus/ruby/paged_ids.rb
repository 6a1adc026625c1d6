history = context[:conversation_history] || []
pages = history.each_slice(5).map { |page| page.map { |r| r[:call_id] } }
result = pages
