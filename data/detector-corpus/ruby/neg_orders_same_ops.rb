orders = context[:orders] || []
big = orders.select { |o| o[:total] > 100 }.sort_by { |o| -o[:total] }
result = big.first(3).map { |o| o[:id] }.join(", ")
