log = context[:conversation_history] || []
around = []
broke = log.index do |item|
  item.dig(:outcome_summary, :ok) == false
end
unless broke.nil?
  lo = [broke - 2, 0].max
  around = log[lo..broke + 2].map do |item|
    [item[:call_id], item[:content]]
  end
end
around
